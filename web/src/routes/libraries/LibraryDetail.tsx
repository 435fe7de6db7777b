import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useLibrary } from '../../api/library';
import { useGenreLibraryStats, useLibraryLastPlayed } from '../../api/stats';
import { Panel } from '../../components/Panel';
import { Tabs } from '../../components/inputs';
import { GlobalStats } from '../../components/stats/GlobalStats';
import { GenreRadars } from '../../components/stats/GenreRadar';
import { LastPlayedGrid } from '../../components/stats/LastPlayedGrid';
import { ActivityTable } from '../../components/activity/ActivityTable';
import { STORAGE, usePreference } from '../../store/preferences';
import { LibraryItems } from './LibraryItems';
import { PurgeOptions } from './PurgeOptions';
import { LibraryCard } from './Libraries';

const TABS = ['overview', 'items', 'activity', 'options'] as const;
type Tab = (typeof TABS)[number];

const VIEWER_TABS: readonly Tab[] = ['overview', 'activity'];

/**
 * A library's page. For a viewer (`viewer`), the API answers with their own plays (access 'own-plays',
 * docs/security.md); the genres, last played, items and purge parts are administrators' and left out.
 */
export default function LibraryDetail({ viewer = false }: { viewer?: boolean }) {
  const { t } = useTranslation();
  const { libraryId = '' } = useParams();
  const library = useLibrary(libraryId);
  const genres = useGenreLibraryStats(libraryId, !viewer);
  const lastPlayed = useLibraryLastPlayed(libraryId, !viewer);
  // The last-selected tab is remembered per library.
  const [stored, setTab] = usePreference<string>(STORAGE.libraryTab(libraryId), 'overview');
  const shown = viewer ? VIEWER_TABS : TABS;
  const tab: Tab = (shown as readonly string[]).includes(stored) ? (stored as Tab) : 'overview';
  const data = library.data;
  return (
    <div>
      <Panel isLoading={library.isLoading} error={library.error} isEmpty={!data} empty="libraries.notFound">
        <h1 className="page-title">
          {data?.Name} {data?.archived && <span className="badge ml-2 bg-gray-700 align-middle text-gray-200">{t('common.archived')}</span>}
        </h1>
      </Panel>
      <Tabs
        label={t('libraries.tabs.label')}
        value={tab}
        onChange={setTab}
        tabs={(
          [
            { id: 'overview', label: t('common.tabs.overview') },
            { id: 'items', label: t('libraries.tabs.items') },
            { id: 'activity', label: t('common.tabs.activity') },
            { id: 'options', label: t('common.tabs.options') },
          ] as const
        ).filter((entry) => shown.includes(entry.id))}
      />
      {tab === 'overview' && (
        <>
          <GlobalStats scope={{ libraryid: libraryId }} />
          {!viewer && <GenreRadars query={genres} />}
          {data && !data.archived && (
            <div className="mb-6 max-w-md">
              <LibraryCard library={data} />
            </div>
          )}
          {!viewer && <LastPlayedGrid query={lastPlayed} />}
        </>
      )}
      {tab === 'items' && !viewer && <LibraryItems libraryId={libraryId} />}
      {tab === 'activity' && <ActivityTable scope={{ kind: 'library', id: libraryId }} />}
      {tab === 'options' && !viewer && <PurgeOptions target="library" id={libraryId} name={data?.Name ?? ''} />}
    </div>
  );
}
