import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { fetchItem, useEpisodes, useItemDetails, useLibraries, useSeasons } from '../../api/library';
import { useConfig } from '../../api/auth';
import { ApiError, errorMessage, isNotFound } from '../../api/client';
import type { Item } from '../../api/types';
import { Panel } from '../../components/Panel';
import { Poster } from '../../components/media';
import { Tabs } from '../../components/inputs';
import { GlobalStats } from '../../components/stats/GlobalStats';
import { ActivityTable } from '../../components/activity/ActivityTable';
import { formatItemSize, formatTicks } from '../../lib/format';
import { PurgeOptions } from '../libraries/PurgeOptions';

type Tab = 'overview' | 'activity' | 'options';

/** Link to the item in the media server's own web client. */
export function mediaServerItemUrl(base: string, id: string, serverId: string | null | undefined): string {
  return `${base.replace(/\/$/, '')}/web/index.html#!/details?id=${encodeURIComponent(id)}${serverId ? `&serverId=${encodeURIComponent(serverId)}` : ''}`;
}

/** `viewer`: a viewer cannot ask the media server for an item (an administrator's sync), so no button. */
function NotFoundItem({ id, viewer }: { id: string; viewer: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  async function fetchIt() {
    setState({ busy: true, error: null });
    try {
      await fetchItem(id);
      await queryClient.invalidateQueries({ queryKey: ['item', id] });
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error: error instanceof ApiError && error.status === 404 ? error.message : errorMessage(error) });
    }
  }
  return (
    <div className="card max-w-lg space-y-3" data-testid="item-not-found">
      <h1 className="text-xl font-semibold text-white">{t('items.notFound')}</h1>
      {viewer ? null : state.error ? (
        <button type="button" className="btn-warning" disabled>
          {state.error}
        </button>
      ) : (
        <button type="button" className="btn-primary" disabled={state.busy} onClick={() => void fetchIt()}>
          {state.busy ? t('common.validating') : t('items.fetch')}
        </button>
      )}
    </div>
  );
}

function Children({ item }: { item: Item }) {
  const { t } = useTranslation();
  const seasons = useSeasons(item.Id, item.Type === 'Series');
  const episodes = useEpisodes(item.Id, item.Type === 'Season');
  const query = item.Type === 'Series' ? seasons : episodes;
  const list = query.data ?? [];
  return (
    <section className="mb-6" aria-label={item.Type === 'Series' ? t('items.seasons') : t('items.episodes')}>
      <h2 className="mb-2 text-lg font-semibold text-white">{item.Type === 'Series' ? t('items.seasons') : t('items.episodes')}</h2>
      <Panel isLoading={query.isLoading} error={query.error} isEmpty={list.length === 0}>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
          {list.map((child) => (
            <Link
              key={child.Id}
              to={`/libraries/item/${child.Id}`}
              className="card flex flex-col gap-1 p-2 text-xs hover:border-gray-600"
              data-testid="child-item"
            >
              <Poster id={child.Id} archived={child.archived} alt={child.Name} className="aspect-[2/3] h-auto w-full" />
              <span className="truncate text-sm text-white">
                {item.Type === 'Season' && child.IndexNumber !== null && child.IndexNumber !== undefined ? `${child.IndexNumber}. ` : ''}
                {child.Name}
              </span>
              {child.times_played !== undefined && (
                <span className="text-gray-400">{t('stats.plays', { count: child.times_played ?? 0 })}</span>
              )}
            </Link>
          ))}
        </div>
      </Panel>
    </section>
  );
}

/**
 * An item's page. For a viewer (`viewer`), the API answers with their own plays of it (access 'own-plays',
 * docs/security.md): no link to the media server (its address is an administrator's setting), no purge.
 */
export default function ItemDetail({ viewer = false }: { viewer?: boolean }) {
  const { t } = useTranslation();
  const { itemId = '' } = useParams();
  const item = useItemDetails(itemId);
  const config = useConfig(!viewer);
  const libraries = useLibraries();
  const [tab, setTab] = useState<Tab>('overview');
  if (item.isLoading) return <Panel isLoading>{null}</Panel>;
  if (isNotFound(item.error) || (!item.error && !item.data)) return <NotFoundItem id={itemId} viewer={viewer} />;
  if (item.error || !item.data)
    return (
      <Panel isLoading={false} error={item.error}>
        {null}
      </Panel>
    );
  const data = item.data;
  const library = (libraries.data ?? []).find((lib) => lib.Name === data.LibraryName || lib.Id === data.ParentId);
  const serverBase = config.data?.settings.EXTERNAL_URL || config.data?.JF_HOST || '';
  const tabs: Array<{ id: Tab; label: string }> = [
    { id: 'overview', label: t('common.tabs.overview') },
    { id: 'activity', label: t('common.tabs.activity') },
  ];
  if (data.archived && !viewer) tabs.push({ id: 'options', label: t('common.tabs.options') });
  return (
    <div>
      <nav aria-label={t('items.breadcrumbs')} className="mb-3 text-sm text-gray-400">
        <ol className="flex flex-wrap items-center gap-1" data-testid="breadcrumbs">
          {library ? (
            <li>
              <Link className="link" to={`/libraries/${library.Id}`}>
                {library.Name}
              </Link>
            </li>
          ) : (
            data.LibraryName && <li>{data.LibraryName}</li>
          )}
          {data.SeriesId && data.SeriesId !== data.Id && (
            <li>
              <span aria-hidden>›</span>{' '}
              <Link className="link" to={`/libraries/item/${data.SeriesId}`}>
                {data.SeriesName}
              </Link>
            </li>
          )}
          {data.SeasonId && data.SeasonId !== data.Id && (
            <li>
              <span aria-hidden>›</span>{' '}
              <Link className="link" to={`/libraries/item/${data.SeasonId}`}>
                {data.SeasonName ?? t('items.season')}
              </Link>
            </li>
          )}
        </ol>
      </nav>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row">
        <Poster id={data.Id} archived={data.archived} alt={data.Name} className="h-60 w-40" />
        <div className="min-w-0 space-y-1 text-sm">
          <h1 className="text-2xl font-semibold text-white">{data.Name}</h1>
          <p className="text-gray-400">{t(`items.types.${data.Type}`, { defaultValue: data.Type })}</p>
          {data.FileName && (
            <p className="break-all">
              <span className="text-gray-400">{t('items.fileName')}: </span>
              {data.FileName}
            </p>
          )}
          {data.Path && (
            <p className="break-all">
              <span className="text-gray-400">{t('items.path')}: </span>
              {data.Path}
            </p>
          )}
          {Boolean(data.RunTimeTicks) && (
            <p>
              <span className="text-gray-400">{t('items.runtime')}: </span>
              {formatTicks(data.RunTimeTicks)}
            </p>
          )}
          {Boolean(data.Size) && (
            <p>
              <span className="text-gray-400">{t('items.size')}: </span>
              {formatItemSize(data.Size)}
            </p>
          )}
          {serverBase && (
            <a
              className="link inline-block pt-2"
              href={mediaServerItemUrl(serverBase, data.Id, config.data?.settings.ServerID)}
              target="_blank"
              rel="noreferrer"
            >
              {config.data?.IS_JELLYFIN === false ? t('items.openInEmby') : t('items.openInJellyfin')}
            </a>
          )}
        </div>
      </div>
      <Tabs label={t('items.tabs')} value={tab} onChange={setTab} tabs={tabs} />
      {tab === 'overview' && (
        <>
          <GlobalStats scope={{ itemid: data.Id }} />
          {(data.Type === 'Series' || data.Type === 'Season') && <Children item={data} />}
        </>
      )}
      {tab === 'activity' && <ActivityTable scope={{ kind: 'item', id: data.Id }} />}
      {tab === 'options' && data.archived && !viewer && <PurgeOptions target="item" id={data.Id} name={data.Name} />}
    </div>
  );
}
