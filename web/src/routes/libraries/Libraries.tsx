import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useLibraries } from '../../api/library';
import { useLibraryCardStats, useLibraryMetadata } from '../../api/stats';
import type { Library } from '../../api/types';
import { Panel } from '../../components/Panel';
import { Switch } from '../../components/inputs';
import { Ago } from '../users/Users';
import { formatDuration, formatSize } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';
import { libraryKind } from '../home/LibraryOverview';
import { useMediaServers } from '../../api/media-servers';
import { useSwitchServer } from '../servers/ServerSwitcher';

/** A library card; `ServerId` is set in the "All servers" list, where opening a library switches to its server. */
export function LibraryCard({
  library,
  files,
  size,
}: {
  library: Library & { ServerId?: string | undefined };
  files?: number | null;
  size?: number | null;
}) {
  const { t } = useTranslation();
  const servers = useMediaServers();
  const switchServer = useSwitchServer();
  const kind = libraryKind(library.CollectionType);
  const serverName = library.ServerId ? servers.data?.find((server) => server.Id === library.ServerId)?.Name : undefined;
  return (
    <Link
      to={`/libraries/${library.Id}`}
      className="card block hover:border-gray-600"
      data-testid="library-card"
      onClick={() => {
        if (library.ServerId) switchServer(library.ServerId, servers.data ?? []);
      }}
    >
      <div className="mb-2 flex items-start justify-between gap-2">
        <h2 className="truncate text-base font-semibold text-white">{library.Name}</h2>
        {library.archived && <span className="badge bg-gray-700 text-gray-200">{t('common.archived')}</span>}
      </div>
      {serverName && (
        <p className="mb-2 truncate text-xs text-gray-400" data-testid="library-server">
          {serverName}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        <dt className="text-gray-400">{t('libraries.type')}</dt>
        <dd>{t(`libraries.kinds.${kind}`)}</dd>
        <dt className="text-gray-400">{t('libraries.plays')}</dt>
        <dd>{library.Plays ?? 0}</dd>
        <dt className="text-gray-400">{t('libraries.time')}</dt>
        <dd>{formatDuration(library.total_playback_duration ?? library.total_play_time ?? 0)}</dd>
        <dt className="text-gray-400">{kind === 'tvshows' ? t('libraries.seriesCounts') : t('libraries.items')}</dt>
        <dd>
          {kind === 'tvshows'
            ? `${library.Library_Count ?? 0} / ${library.Season_Count ?? 0} / ${library.Episode_Count ?? 0}`
            : (library.Library_Count ?? 0)}
        </dd>
        {files !== undefined && (
          <>
            <dt className="text-gray-400">{t('libraries.files')}</dt>
            <dd>
              {files ?? 0} · {formatSize(size)}
            </dd>
          </>
        )}
        <dt className="text-gray-400">{t('libraries.lastPlayed')}</dt>
        <dd className="truncate">{library.ItemName ?? t('common.na')}</dd>
        <dt className="text-gray-400">{t('libraries.lastActivity')}</dt>
        <dd>
          <Ago parts={library.LastActivity} />
        </dd>
      </dl>
    </Link>
  );
}

export default function Libraries() {
  const { t } = useTranslation();
  const cards = useLibraryCardStats();
  const libraries = useLibraries();
  const metadata = useLibraryMetadata();
  const [showArchived, setShowArchived] = usePreference(STORAGE.showArchivedLibraries, false);
  const archivedIds = new Set((libraries.data ?? []).filter((library) => library.archived).map((library) => library.Id));
  const all = (cards.data ?? []).map((library) => ({ ...library, archived: library.archived ?? archivedIds.has(library.Id) }));
  const anyArchived = all.some((library) => library.archived);
  const shown = all.filter((library) => showArchived || !library.archived);
  // Keyed by server and library: with "All servers" the list holds every server's libraries.
  const keyOf = (entry: { Id: string; ServerId?: string | undefined }) => `${entry.ServerId ?? ''}/${entry.Id}`;
  const meta = new Map((metadata.data ?? []).map((entry) => [keyOf(entry), entry]));
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">{t('nav.libraries')}</h1>
        {anyArchived && (
          <label className="flex items-center gap-2 text-sm text-gray-300">
            <Switch checked={showArchived} onChange={setShowArchived} label={t('libraries.showArchived')} />
            {t('libraries.showArchived')}
          </label>
        )}
      </div>
      <Panel isLoading={cards.isLoading} error={cards.error} isEmpty={shown.length === 0} empty="libraries.empty">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((library) => (
            <LibraryCard
              key={keyOf(library)}
              library={library}
              files={meta.has(keyOf(library)) ? (meta.get(keyOf(library))?.files ?? 0) : undefined}
              size={meta.get(keyOf(library))?.Size}
            />
          ))}
        </div>
      </Panel>
    </div>
  );
}
