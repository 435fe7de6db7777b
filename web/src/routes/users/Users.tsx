import { Fragment, useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useAllUserActivity } from '../../api/stats';
import { useServerSelection } from '../../store/server-selection';
import { setUntrackedUser, useUntrackedUsers } from '../../api/users';
import { errorMessage } from '../../api/client';
import { exportUsers } from '../../api/export';
import type { UserActivityRow } from '../../api/types';
import { Panel } from '../../components/Panel';
import { Avatar } from '../../components/media';
import { PageSizeSelect, Pager, SearchInput } from '../../components/inputs';
import { toast } from '../../components/toasts';
import { agoParts, formatDuration } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';
import { USER_SORTS, searchUsers, sortUsers, type UserSort } from '@reelstat/contract';

export function Ago({ parts }: { parts: UserActivityRow['LastSeen'] }) {
  const { t } = useTranslation();
  const ago = agoParts(parts);
  if (!ago) return <>{t('common.never')}</>;
  return <>{t(`common.ago.${ago.unit}`, { count: ago.value })}</>;
}

export default function Users() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useAllUserActivity();
  const untracked = useUntrackedUsers();
  const selectServer = useServerSelection((state) => state.select);
  /** A user of another server (listed with "All servers") opens with that server selected. */
  const openServerOf = (serverId: string | undefined) => {
    if (!serverId) return;
    selectServer(serverId);
    void queryClient.resetQueries({ predicate: (entry) => entry.queryKey[0] !== 'media-servers' });
  };
  const [size, setSize] = usePreference(STORAGE.pageSize, 10);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<UserSort>('LastSeen');
  const [desc, setDesc] = useState(false);
  const [page, setPage] = useState(1);
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setPage(1);
  }, []);
  const rows = useMemo(() => {
    const untrackedIds = new Set(untracked.data ?? []);
    // With "All servers" each row names its server and carries its own Tracked flag.
    const withTracked = (query.data ?? []).map((row) => ({ ...row, Tracked: row.ServerId ? row.Tracked : !untrackedIds.has(row.UserId) }));
    return sortUsers(searchUsers(withTracked, search), sort, desc);
  }, [query.data, untracked.data, search, sort, desc]);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const shown = rows.slice((Math.min(page, pages) - 1) * size, Math.min(page, pages) * size);

  async function toggleTracked(userId: string, serverId?: string) {
    try {
      const list = await setUntrackedUser(userId, serverId);
      if (serverId) await queryClient.invalidateQueries({ queryKey: ['stats', 'all-user-activity'] });
      else queryClient.setQueryData(['untracked-users'], list);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }
  const header = (column: UserSort) => (
    <th aria-sort={sort === column ? (desc ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className="inline-flex items-center gap-1 hover:text-white"
        onClick={() => {
          if (sort === column) setDesc(!desc);
          else {
            setSort(column);
            setDesc(column === 'TotalPlays' || column === 'TotalWatchTime');
          }
        }}
      >
        {t(`users.columns.${column}`)}
        <span aria-hidden>{sort === column ? (desc ? '▼' : '▲') : ''}</span>
      </button>
    </th>
  );
  return (
    <div>
      <h1 className="page-title">{t('nav.users')}</h1>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <SearchInput value={search} onSearch={onSearch} label={t('users.search')} />
        <button
          type="button"
          className="btn-secondary"
          onClick={() => void exportUsers({ search, sort, desc }).catch((error: unknown) => toast.error(errorMessage(error)))}
        >
          {t('export.csv')}
        </button>
        <PageSizeSelect
          value={size}
          onChange={(next) => {
            setSize(next);
            setPage(1);
          }}
        />
      </div>
      <Panel isLoading={query.isLoading} error={query.error} isEmpty={rows.length === 0} empty="users.empty">
        <div className="overflow-x-auto rounded-lg border border-gray-800">
          <table className="table" data-testid="users-table">
            <thead>
              <tr>
                <th>
                  <span className="sr-only">{t('users.avatar')}</span>
                </th>
                {USER_SORTS.map((column) => (
                  <Fragment key={column}>{header(column)}</Fragment>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={`${row.ServerId ?? ''}/${row.UserId}`} data-testid="user-row">
                  <td>
                    <Avatar userId={row.UserId} hasImage={Boolean(row.PrimaryImageTag)} name={row.UserName} />
                  </td>
                  <td>
                    <Link className="link" to={`/users/${row.UserId}`} onClick={() => openServerOf(row.ServerId)}>
                      {row.UserName}
                    </Link>
                  </td>
                  <td>
                    <button
                      type="button"
                      className={row.Tracked ? 'text-emerald-400' : 'text-gray-500'}
                      aria-pressed={row.Tracked}
                      aria-label={t('users.trackedToggle', { name: row.UserName })}
                      title={row.Tracked ? t('users.tracked') : t('users.untracked')}
                      onClick={() => void toggleTracked(row.UserId, row.ServerId)}
                    >
                      {row.Tracked ? '●' : '○'}
                    </button>
                  </td>
                  <td className="min-w-40">
                    {row.LastWatched ? (
                      row.NowPlayingItemId ? (
                        <Link className="hover:underline" to={`/libraries/item/${row.NowPlayingItemId}`}>
                          {row.LastWatched}
                        </Link>
                      ) : (
                        row.LastWatched
                      )
                    ) : (
                      t('common.na')
                    )}
                  </td>
                  <td className="whitespace-nowrap">{row.LastClient ?? t('common.na')}</td>
                  <td className="text-right tabular-nums">{row.TotalPlays ?? 0}</td>
                  <td className="whitespace-nowrap">{formatDuration(row.TotalWatchTime ?? 0)}</td>
                  <td className="whitespace-nowrap">
                    <Ago parts={row.LastSeen} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-3 flex justify-end">
          <Pager page={Math.min(page, pages)} pages={pages} onPage={setPage} />
        </div>
      </Panel>
    </div>
  );
}
