import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLibraries } from '../../api/library';
import { ActivityTable } from '../../components/activity/ActivityTable';
import { Modal } from '../../components/Modal';
import { STORAGE, usePreference } from '../../store/preferences';
import { toggleAll } from '../../lib/rules';

export const STREAM_FILTERS = ['All', 'Transcode', 'DirectPlay', 'DirectStream'] as const;

function LibraryFilterDialog({
  selected,
  onChange,
  onClose,
}: {
  selected: string[];
  onChange: (ids: string[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const libraries = useLibraries();
  const all = (libraries.data ?? []).map((library) => library.Id);
  return (
    <Modal title={t('activity.libraryFilter')} onClose={onClose}>
      <button type="button" className="btn-secondary mb-3" onClick={() => onChange(toggleAll(selected, all))}>
        {t('common.toggleAll')}
      </button>
      <ul className="space-y-2">
        {(libraries.data ?? []).map((library) => (
          <li key={library.Id}>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={selected.includes(library.Id)}
                onChange={() =>
                  onChange(selected.includes(library.Id) ? selected.filter((id) => id !== library.Id) : [...selected, library.Id])
                }
              />
              {library.Name}
            </label>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

export default function Activity() {
  const { t } = useTranslation();
  const [stream, setStream] = usePreference<string>(STORAGE.streamFilter, 'All');
  const [libraries, setLibraries] = usePreference<string[]>(STORAGE.libraryFilters, []);
  const [dialog, setDialog] = useState(false);
  const filters = [
    ...(stream !== 'All' ? [{ field: 'PlayMethod', value: stream }] : []),
    ...(libraries.length > 0 ? [{ field: 'ParentId', value: libraries }] : []),
  ];
  return (
    <div>
      <h1 className="page-title">{t('nav.activity')}</h1>
      <ActivityTable
        scope={{ kind: 'global' }}
        filters={filters}
        toolbar={
          <>
            <button type="button" className="btn-secondary" onClick={() => setDialog(true)}>
              {t('activity.libraryFilter')}
              {libraries.length > 0 && ` (${libraries.length})`}
            </button>
            <select className="input w-40" aria-label={t('activity.playType')} value={stream} onChange={(e) => setStream(e.target.value)}>
              {STREAM_FILTERS.map((value) => (
                <option key={value} value={value}>
                  {t(`activity.streamFilter.${value}`)}
                </option>
              ))}
            </select>
          </>
        }
      />
      {dialog && <LibraryFilterDialog selected={libraries} onChange={setLibraries} onClose={() => setDialog(false)} />}
    </div>
  );
}
