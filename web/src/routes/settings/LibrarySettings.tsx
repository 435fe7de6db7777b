import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { setExcludedLibrary, useTrackedLibraries } from '../../api/library';
import { errorMessage } from '../../api/client';
import type { TrackedLibrary } from '../../api/types';
import { Panel } from '../../components/Panel';
import { Poster } from '../../components/media';
import { Switch } from '../../components/inputs';
import { toast } from '../../components/toasts';
import { libraryKind } from '../home/LibraryOverview';

export function LibrarySettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useTrackedLibraries();
  async function flip(library: TrackedLibrary) {
    try {
      await setExcludedLibrary(library.Id);
      // Flips on success only (SPEC.md §4).
      queryClient.setQueryData<TrackedLibrary[]>(['tracked-libraries'], (list) =>
        (list ?? []).map((l) => (l.Id === library.Id ? { ...l, Tracked: !l.Tracked } : l)),
      );
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }
  const list = query.data ?? [];
  return (
    <Panel isLoading={query.isLoading} error={query.error} isEmpty={list.length === 0} empty="libraries.empty">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {list.map((library) => (
          <div key={library.Id} className="card flex items-center gap-3" data-testid="tracked-library">
            <Poster id={library.Id} alt={library.Name} className="h-16 w-16" />
            <div className="min-w-0 flex-1">
              <div className="truncate font-medium text-white">{library.Name}</div>
              <div className="text-sm text-gray-400">{t(`libraries.kinds.${libraryKind(library.CollectionType)}`)}</div>
            </div>
            <Switch
              checked={library.Tracked}
              onChange={() => void flip(library)}
              label={t('settings.libraries.tracked', { name: library.Name })}
            />
          </div>
        ))}
      </div>
    </Panel>
  );
}
