/** The /Items query Reelstat sends, and its translation into query parameters. */
import { canonicalMediaServerId } from './ids.js';
import type { QueryParams } from './query-params.js';

/**
 * Optional fields a sync needs (contract §4: without `fields` the server leaves them out). MediaSources carries
 * the MediaStreams of every source, so top-level MediaStreams is not asked for.
 */
export const DEFAULT_ITEM_FIELDS: readonly string[] = [
  'DateCreated',
  'DateLastSaved',
  'ParentId',
  'Path',
  'Genres',
  'ProviderIds',
  'MediaSources',
];

/** Single-item reads also get the overview and counts. */
export const DETAIL_ITEM_FIELDS: readonly string[] = [
  ...DEFAULT_ITEM_FIELDS,
  'Overview',
  'Studios',
  'Tags',
  'ChildCount',
  'RecursiveItemCount',
];

export interface ItemQuery {
  /** A library (VirtualFolder ItemId), series, season, album… */
  parentId?: string;
  /** Default true: every descendant, not only direct children. */
  recursive?: boolean;
  /** BaseItemKind names, e.g. ['Movie', 'Episode']. */
  includeItemTypes?: readonly string[];
  excludeItemTypes?: readonly string[];
  /** Default DEFAULT_ITEM_FIELDS. */
  fields?: readonly string[];
  /** Only items saved (added or changed) since then: incremental sync. */
  minDateLastSaved?: Date | string;
  ids?: readonly string[];
  /**
   * Default ['DateCreated', 'SortName'] ascending: paging needs a stable order (the database order is
   * unspecified), and items added during a sync land after the pages already read.
   */
  sortBy?: readonly string[];
  sortOrder?: 'Ascending' | 'Descending';
  /** Adds that user's UserData (play count, played, position). */
  userId?: string;
  /** Jellyfin includes virtual (missing) episodes for API keys; false leaves them out. */
  isMissing?: boolean;
}

export interface ItemPagingOptions {
  /** Items per request (default: the client's pageSize, 500). */
  pageSize?: number;
  /** Resume from this offset. */
  startIndex?: number;
  signal?: AbortSignal;
}

export function itemQueryParams(query: ItemQuery): QueryParams {
  const minDate = query.minDateLastSaved;
  return {
    parentId: query.parentId === undefined ? undefined : canonicalMediaServerId(query.parentId, 'parentId'),
    recursive: query.recursive ?? true,
    includeItemTypes: query.includeItemTypes,
    excludeItemTypes: query.excludeItemTypes,
    fields: query.fields ?? DEFAULT_ITEM_FIELDS,
    minDateLastSaved: minDate === undefined ? undefined : typeof minDate === 'string' ? minDate : minDate.toISOString(),
    ids: query.ids?.map((id) => canonicalMediaServerId(id, 'item id')),
    sortBy: query.sortBy ?? ['DateCreated', 'SortName'],
    sortOrder: query.sortOrder ?? 'Ascending',
    userId: query.userId === undefined ? undefined : canonicalMediaServerId(query.userId, 'userId'),
    isMissing: query.isMissing,
  };
}
