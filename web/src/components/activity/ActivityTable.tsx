import { Fragment, useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { exportHistory } from '../../api/export';
import { deletePlaybackActivity, useHistory, type HistoryQuery, type HistoryScope } from '../../api/history';
import { useConfig, useMe } from '../../api/auth';
import { errorMessage } from '../../api/client';
import type { PlaybackActivity } from '../../api/types';
import { Panel } from '../Panel';
import { ConfirmDialog } from '../Modal';
import { PageSizeSelect, Pager, SearchInput } from '../inputs';
import { toast } from '../toasts';
import { formatDateTime, formatDuration } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';
import type { HISTORY_SORT_COLUMNS } from '@reelstat/contract';
import { StreamDetailsModal, methodKey } from './StreamDetailsModal';

/** The server's sortable columns (HISTORY_SORT_COLUMNS of the contract). */
type Sortable = (typeof HISTORY_SORT_COLUMNS)[number];

function titleOf(row: PlaybackActivity): string {
  if (row.SeriesName)
    return `${row.SeriesName} - S${row.SeasonNumber ?? '?'}E${row.EpisodeNumber ?? '?'} - ${row.NowPlayingItemName ?? ''}`;
  return row.NowPlayingItemName ?? '-';
}

/**
 * The shared activity table: server-side paging, sorting, search and filters; expandable rows; multi-select
 * delete after confirmation (rows go locally); the stream-details modal from the client or method cell.
 */
export function ActivityTable({
  scope,
  filters = [],
  toolbar,
}: {
  scope: HistoryScope;
  filters?: HistoryQuery['filters'];
  toolbar?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useConfig();
  // Deleting plays is for administrators: a viewer's table has no selection (the API would refuse it anyway).
  const canDelete = useMe().data?.role !== 'viewer';
  const isJellyfin = config.data?.IS_JELLYFIN ?? true;
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [size, setSize] = usePreference(STORAGE.pageSize, 10);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sortable>('ActivityDateInserted');
  const [desc, setDesc] = useState(true);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [details, setDetails] = useState<PlaybackActivity | null>(null);
  const query = useHistory(scope, { page, size, search, sort, desc, filters });
  const rows = (query.data?.results ?? []).filter((row) => !removed.has(String(row.Id)));
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setPage(1);
  }, []);

  function toggleSort(column: Sortable) {
    if (column === sort) setDesc(!desc);
    else {
      setSort(column);
      setDesc(true);
    }
    setPage(1);
  }
  function toggle(set: Set<string>, id: string, update: (next: Set<string>) => void) {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    update(next);
  }
  async function remove() {
    const ids = [...selected];
    setConfirming(false);
    try {
      await deletePlaybackActivity(ids);
      setRemoved(new Set([...removed, ...ids]));
      setSelected(new Set());
      toast.success(t('activity.deleted', { count: ids.length }));
      void queryClient.invalidateQueries({ queryKey: ['history'] });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  const header = (column: Sortable, label: string) => (
    <th aria-sort={sort === column ? (desc ? 'descending' : 'ascending') : 'none'}>
      <button type="button" className="inline-flex items-center gap-1 hover:text-white" onClick={() => toggleSort(column)}>
        {label}
        <span aria-hidden>{sort === column ? (desc ? '▼' : '▲') : ''}</span>
      </button>
    </th>
  );
  async function downloadCsv() {
    try {
      await exportHistory(scope, { search, sort, desc, filters });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(String(row.Id)));

  return (
    <div data-testid="activity-table">
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <SearchInput value={search} onSearch={onSearch} label={t('common.search')} />
        {toolbar}
        <PageSizeSelect
          value={size}
          onChange={(next) => {
            setSize(next);
            setPage(1);
          }}
        />
        <button type="button" className="btn-secondary" onClick={() => void downloadCsv()}>
          {t('export.csv')}
        </button>
        {selected.size > 0 && (
          <button type="button" className="btn-danger" onClick={() => setConfirming(true)}>
            {t('activity.deleteSelected', { count: selected.size })}
          </button>
        )}
      </div>
      <Panel isLoading={query.isLoading} error={query.error} isEmpty={rows.length === 0} empty="activity.empty">
        <div className="overflow-x-auto rounded-lg border border-gray-800">
          <table className="table">
            <thead>
              <tr>
                <th>
                  {canDelete && (
                    <input
                      type="checkbox"
                      aria-label={t('activity.selectAll')}
                      checked={allSelected}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((row) => String(row.Id))))}
                    />
                  )}
                </th>
                <th>
                  <span className="sr-only">{t('activity.expand')}</span>
                </th>
                {header('UserName', t('activity.columns.user'))}
                {header('RemoteEndPoint', t('activity.columns.ip'))}
                {header('NowPlayingItemName', t('activity.columns.title'))}
                {header('Client', t('activity.columns.client'))}
                {header('PlayMethod', t('activity.columns.method'))}
                {header('DeviceName', t('activity.columns.device'))}
                {header('ActivityDateInserted', t('activity.columns.date'))}
                {header('PlaybackDuration', t('activity.columns.playback'))}
                <th>{t('activity.columns.plays')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const id = String(row.Id);
                const open = expanded.has(id);
                const subRows = row.results ?? [];
                const method = methodKey(row.PlayMethod, isJellyfin);
                const notes =
                  row.PlayMethod === 'Transcode'
                    ? [
                        row.TranscodingInfo?.IsVideoDirect === false ? t('activity.video') : null,
                        row.TranscodingInfo?.IsAudioDirect === false ? t('activity.audio') : null,
                      ]
                        .filter(Boolean)
                        .join(' + ')
                    : '';
                return (
                  <Fragment key={id}>
                    <tr data-testid="activity-row">
                      <td>
                        {canDelete && (
                          <input
                            type="checkbox"
                            aria-label={t('activity.selectRow', { title: titleOf(row) })}
                            checked={selected.has(id)}
                            onChange={() => toggle(selected, id, setSelected)}
                          />
                        )}
                      </td>
                      <td>
                        {subRows.length > 0 && (
                          <button
                            type="button"
                            className="btn-secondary px-2 py-0.5"
                            aria-expanded={open}
                            aria-label={t('activity.expand')}
                            onClick={() => toggle(expanded, id, setExpanded)}
                          >
                            {open ? '−' : '+'}
                          </button>
                        )}
                      </td>
                      <td className="whitespace-nowrap">
                        {row.UserId ? (
                          <Link className="link" to={`/users/${row.UserId}`}>
                            {row.UserName}
                          </Link>
                        ) : (
                          row.UserName
                        )}
                      </td>
                      <td className="whitespace-nowrap">{row.RemoteEndPoint ?? '-'}</td>
                      <td className="min-w-48">
                        {row.NowPlayingItemId ? (
                          <Link className="hover:underline" to={`/libraries/item/${row.EpisodeId ?? row.NowPlayingItemId}`}>
                            {titleOf(row)}
                          </Link>
                        ) : (
                          titleOf(row)
                        )}
                      </td>
                      <td className="whitespace-nowrap">
                        <button type="button" className="link" onClick={() => setDetails(row)}>
                          {row.Client ?? '-'}
                        </button>
                      </td>
                      <td className="whitespace-nowrap">
                        <button type="button" className="link" onClick={() => setDetails(row)}>
                          {t(`activity.methods.${method}`)}
                          {notes && ` (${notes})`}
                        </button>
                      </td>
                      <td className="whitespace-nowrap">{row.DeviceName ?? '-'}</td>
                      <td className="whitespace-nowrap">{formatDateTime(row.ActivityDateInserted, hour12)}</td>
                      <td className="whitespace-nowrap">{formatDuration(row.PlaybackDuration ?? 0)}</td>
                      <td className="text-right tabular-nums">{row.TotalPlays ?? 1}</td>
                    </tr>
                    {open &&
                      subRows.map((sub) => (
                        <tr key={`${id}-${sub.Id}`} className="bg-gray-950/60 text-gray-300" data-testid="activity-subrow">
                          <td />
                          <td />
                          <td>{sub.UserName}</td>
                          <td>{sub.RemoteEndPoint ?? '-'}</td>
                          <td>{titleOf(sub)}</td>
                          <td>
                            <button type="button" className="link" onClick={() => setDetails(sub)}>
                              {sub.Client ?? '-'}
                            </button>
                          </td>
                          <td>{t(`activity.methods.${methodKey(sub.PlayMethod, isJellyfin)}`)}</td>
                          <td>{sub.DeviceName ?? '-'}</td>
                          <td className="whitespace-nowrap">{formatDateTime(sub.ActivityDateInserted, hour12)}</td>
                          <td>{formatDuration(sub.PlaybackDuration ?? 0)}</td>
                          <td />
                        </tr>
                      ))}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
        <div className="mt-3 flex justify-end">
          <Pager page={page} pages={query.data?.pages ?? 1} onPage={setPage} />
        </div>
      </Panel>
      {confirming && (
        <ConfirmDialog
          title={t('activity.confirmTitle')}
          message={t('activity.confirmDelete', { count: selected.size })}
          confirmLabel={t('common.delete')}
          onConfirm={() => void remove()}
          onClose={() => setConfirming(false)}
        />
      )}
      {details && <StreamDetailsModal row={details} onClose={() => setDetails(null)} />}
    </div>
  );
}
