import type { LibraryItemsQuery } from '@reelstat/contract';
import type { ItemAnswer } from './item-queries.js';

const DEFAULT_PAGE_SIZE = 50;

/** Title order ignores a leading article (SPEC.md §9: "ignoring a leading A, An or The"). */
const titleKey = (name: string) => name.replace(/^(a|an|the)\s+/i, '').toLocaleLowerCase();

const COMPARE: Record<string, (a: ItemAnswer, b: ItemAnswer) => number> = {
  Title: (a, b) => titleKey(a.Name).localeCompare(titleKey(b.Name)),
  Date: (a, b) => (a.DateCreated ?? '').localeCompare(b.DateCreated ?? ''),
  Views: (a, b) => a.times_played - b.times_played,
  WatchTime: (a, b) => a.total_play_time - b.total_play_time,
  Size: (a, b) => (a.Size ?? 0) - (b.Size ?? 0),
};
const SPEC_SORT: Record<string, string> = { Name: 'Title', DateCreated: 'Date', times_played: 'Views', total_play_time: 'WatchTime' };

export function wantsPagedItems(query: LibraryItemsQuery): boolean {
  return Object.values(query).some((value) => value !== undefined);
}

/**
 * The paged form of a library's items (SPEC.md §3 Paged result), cut from the plain list the dashboard caches:
 * search on the name (or the series name), sort with ties kept in the list's order, then one page.
 */
export function pageLibraryItems(items: ItemAnswer[], query: LibraryItemsQuery) {
  const size = query.size ?? DEFAULT_PAGE_SIZE;
  const sort = query.sort ?? 'Views';
  const desc = query.desc ?? true;
  const search = (query.search ?? '').trim();
  const needle = search.toLocaleLowerCase();
  const matching = needle
    ? items.filter((item) => [item.Name, item.SeriesName].some((text) => text?.toLocaleLowerCase().includes(needle)))
    : items;
  const compare = COMPARE[SPEC_SORT[sort] ?? sort]!;
  const sorted = [...matching].sort((a, b) => (desc ? compare(b, a) : compare(a, b)));
  const pages = Math.max(1, Math.ceil(sorted.length / size));
  const page = query.page ?? 1;
  return { results: sorted.slice((page - 1) * size, page * size), pages, current_page: page, size, search, sort, desc };
}
