import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useLibraryItemsWithStats } from '../../api/stats';
import type { Item } from '../../api/types';
import { Panel } from '../../components/Panel';
import { Poster } from '../../components/media';
import { SearchInput } from '../../components/inputs';
import { formatDuration } from '../../lib/format';
import { sortableTitle } from '../../lib/rules';
import { STORAGE, usePreference } from '../../store/preferences';

export const ITEM_SORTS = ['Title', 'Date', 'Views', 'WatchTime', 'Size'] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];
export const ARCHIVE_FILTERS = ['notArchived', 'archived', 'all'] as const;
/** Items are shown in pages of 60 (a library can hold thousands). */
const PAGE = 60;

export function sortItems(items: readonly Item[], by: ItemSort, ascending: boolean): Item[] {
  const value = (item: Item): string | number => {
    switch (by) {
      case 'Title':
        return sortableTitle(item.Name);
      case 'Date':
        return item.DateCreated ?? '';
      case 'Views':
        return item.times_played ?? 0;
      case 'WatchTime':
        return item.total_play_time ?? 0;
      case 'Size':
        return item.Size ?? 0;
    }
  };
  return [...items].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
}

export function LibraryItems({ libraryId }: { libraryId: string }) {
  const { t } = useTranslation();
  const query = useLibraryItemsWithStats(libraryId);
  const [sort, setSort] = usePreference<string>(STORAGE.itemSort, 'Title');
  const [ascending, setAscending] = usePreference(STORAGE.itemSortAsc, true);
  const [archive, setArchive] = usePreference<string>(STORAGE.archiveFilter, 'notArchived');
  const [search, setSearch] = useState('');
  const [shown, setShown] = useState(PAGE);
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setShown(PAGE);
  }, []);
  const items = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const filtered = (query.data ?? []).filter(
      (item) =>
        (archive === 'all' || (archive === 'archived') === Boolean(item.archived)) && (!needle || item.Name.toLowerCase().includes(needle)),
    );
    return sortItems(filtered, (ITEM_SORTS as readonly string[]).includes(sort) ? (sort as ItemSort) : 'Title', ascending);
  }, [query.data, search, archive, sort, ascending]);
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <SearchInput value={search} onSearch={onSearch} label={t('common.search')} />
        <select
          className="input w-40"
          aria-label={t('libraries.archiveFilter')}
          value={archive}
          onChange={(e) => setArchive(e.target.value)}
        >
          {ARCHIVE_FILTERS.map((value) => (
            <option key={value} value={value}>
              {t(`libraries.archive.${value}`)}
            </option>
          ))}
        </select>
        <select className="input w-40" aria-label={t('libraries.sortBy')} value={sort} onChange={(e) => setSort(e.target.value)}>
          {ITEM_SORTS.map((value) => (
            <option key={value} value={value}>
              {t(`libraries.sorts.${value}`)}
            </option>
          ))}
        </select>
        <button type="button" className="btn-secondary" aria-pressed={ascending} onClick={() => setAscending(!ascending)}>
          {ascending ? t('libraries.ascending') : t('libraries.descending')}
        </button>
      </div>
      <Panel isLoading={query.isLoading} error={query.error} isEmpty={items.length === 0} empty="libraries.noItems">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
          {items.slice(0, shown).map((item) => (
            <Link
              key={item.Id}
              to={`/libraries/item/${item.Id}`}
              className="card flex flex-col gap-1 p-2 text-xs hover:border-gray-600"
              data-testid="library-item"
            >
              <Poster id={item.Id} archived={item.archived} alt={item.Name} className="aspect-[2/3] h-auto w-full" />
              <span className="truncate text-sm text-white">{item.Name}</span>
              <span className="text-gray-400">
                {t('stats.plays', { count: item.times_played ?? 0 })} · {formatDuration(item.total_play_time ?? 0)}
              </span>
            </Link>
          ))}
        </div>
        {items.length > shown && (
          <div className="mt-4 flex justify-center">
            <button type="button" className="btn-secondary" onClick={() => setShown(shown + PAGE)}>
              {t('libraries.showMore', { count: Math.min(PAGE, items.length - shown), total: items.length - shown })}
            </button>
          </div>
        )}
      </Panel>
    </div>
  );
}
