import type { HistoryFilter, HistoryQuery } from '@reelstat/contract';
import type { Database } from '../db/database.js';
import type { EventBus } from '../bus/event-bus.js';
import { deletePlaybackActivity } from '../library/purge.js';
import type { StatisticsContext } from '../stats/statistics-context.js';
import { queryHistory, type CountCache, type HistoryFilters, type HistoryScope } from './history-query.js';

/** Turns the dashboard's filter list into one set of conditions; repeated fields narrow (intersect). */
export function toHistoryFilters(list: HistoryFilter[]): HistoryFilters {
  const filters: HistoryFilters = {};
  const intersect = (current: string[] | undefined, next: string[]) => (current ? current.filter((v) => next.includes(v)) : next);
  for (const filter of list) {
    switch (filter.field) {
      case 'PlayMethod':
        if (!filter.value.includes('All')) filters.playMethods = intersect(filters.playMethods, filter.value);
        break;
      case 'ParentId':
      case 'LibraryId':
        filters.libraryIds = intersect(filters.libraryIds, filter.value);
        break;
      case 'UserId':
        filters.userIds = intersect(filters.userIds, filter.value);
        break;
      case 'ActivityDateInserted':
        if (filter.min) filters.from = new Date(filter.min);
        if (filter.max) filters.to = new Date(filter.max);
        break;
    }
  }
  // An intersection that left nothing must match nothing, not everything.
  for (const key of ['playMethods', 'libraryIds', 'userIds'] as const) if (filters[key]?.length === 0) filters[key] = ['\u0000'];
  return filters;
}

/**
 * The playback history of SPEC.md §7 (getHistory and friends, deletePlaybackActivity): which media server it
 * reads (a server id in, the default one when absent) and the paged answer's wire shape, which echoes the request.
 */
export class HistoryService {
  constructor(
    private readonly db: Database,
    private readonly context: StatisticsContext,
    /** Tells browsers what a delete or purge changed (the 'history' socket event); absent in unit tests. */
    private readonly bus?: EventBus,
  ) {}

  /** One server's plays (the default one when absent), or with a list of ids every listed server's ("All servers"). */
  async page(scope: HistoryScope, query: HistoryQuery, serverId?: string | string[]) {
    const base = {
      current_page: query.page,
      size: query.size,
      search: query.search,
      sort: query.sort,
      desc: query.desc,
      filters: query.filters,
    };
    let serverIds: string[];
    let countCache: CountCache | undefined;
    if (Array.isArray(serverId)) serverIds = serverId;
    else {
      const server = await this.context.server(serverId);
      serverIds = server ? [server.serverId] : [];
      // Keyed by the history's version: a count is reused until a play is recorded or deleted (AnswerCache).
      if (server) countCache = (query, count) => this.context.cachedContent(server, 'history-count', query, count);
    }
    if (serverIds.length === 0) return { results: [], pages: 1, total: 0, total_exact: true, ...base };
    const answer = await queryHistory(
      this.db,
      serverIds.length === 1 ? serverIds[0]! : serverIds,
      {
        scope,
        page: query.page,
        size: query.size,
        search: query.search,
        sort: query.sort,
        desc: query.desc,
        filters: toHistoryFilters(query.filters),
      },
      countCache,
    );
    return { ...answer, ...base };
  }

  /** Deletes plays by id; statistics are corrected in the same transaction. 409 when no server is linked. */
  async deletePlays(ids: number[], serverId?: string) {
    const server = await this.context.requireServer(serverId);
    const deleted = await deletePlaybackActivity(this.db, server.serverId, ids, this.bus);
    return { message: `Deleted ${deleted} play${deleted === 1 ? '' : 's'}`, deleted };
  }
}
