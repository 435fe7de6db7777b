import { AppError, deletePlaybackActivity, queryHistory, type HistoryFilters, type HistoryScope, type Runtime } from '@reelstat/core';
import {
  deletePlaybackAnswer,
  deletePlaybackBody,
  historyPageAnswer,
  historyQuery,
  itemHistoryBody,
  libraryHistoryBody,
  userHistoryBody,
  type HistoryFilter,
  type HistoryQuery,
} from '@reelstat/contract';
import { route } from '../http/api-routes.js';
import { statisticsContext } from '../stats/server-context.js';

const tag = 'history';

/** Turns the dashboard's filter list into one set of conditions; repeated fields narrow (intersect). */
function toFilters(list: HistoryFilter[]): HistoryFilters {
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

async function page(runtime: Runtime, scope: HistoryScope, query: HistoryQuery) {
  const base = {
    current_page: query.page,
    size: query.size,
    search: query.search,
    sort: query.sort,
    desc: query.desc,
    filters: query.filters,
  };
  const server = await statisticsContext(runtime).server();
  if (!server) return { results: [], pages: 1, total: 0, total_exact: true, ...base };
  const answer = await queryHistory(runtime.db, server.serverId, {
    scope,
    page: query.page,
    size: query.size,
    search: query.search,
    sort: query.sort,
    desc: query.desc,
    filters: toFilters(query.filters),
  });
  return { ...answer, ...base };
}

export const historyRoutes = [
  route({
    method: 'get',
    path: '/api/getHistory',
    tag,
    summary: 'All plays, paged (size 10/25/50/100), sorted, searched and filtered',
    access: 'authenticated',
    query: historyQuery,
    response: historyPageAnswer,
    handle: ({ query, runtime }) => page(runtime, { kind: 'all' }, query),
  }),
  route({
    method: 'post',
    path: '/api/getUserHistory',
    tag,
    summary: "A user's plays, paged like getHistory",
    access: 'authenticated',
    query: historyQuery,
    body: userHistoryBody,
    response: historyPageAnswer,
    handle: ({ query, body, runtime }) => page(runtime, { kind: 'user', id: body.userid }, query),
  }),
  route({
    method: 'post',
    path: '/api/getLibraryHistory',
    tag,
    summary: "A library's plays, paged like getHistory",
    access: 'authenticated',
    query: historyQuery,
    body: libraryHistoryBody,
    response: historyPageAnswer,
    handle: ({ query, body, runtime }) => page(runtime, { kind: 'library', id: body.libraryid }, query),
  }),
  route({
    method: 'post',
    path: '/api/getItemHistory',
    tag,
    summary: "An item's plays (a series or season includes its episodes), paged like getHistory",
    access: 'authenticated',
    query: historyQuery,
    body: itemHistoryBody,
    response: historyPageAnswer,
    handle: ({ query, body, runtime }) => page(runtime, { kind: 'item', id: body.itemid }, query),
  }),
  route({
    method: 'post',
    path: '/api/deletePlaybackActivity',
    tag,
    summary: 'Delete plays by id; statistics are corrected in the same transaction',
    access: 'authenticated',
    body: deletePlaybackBody,
    response: deletePlaybackAnswer,
    handle: async ({ body, runtime }) => {
      const server = await statisticsContext(runtime).server();
      if (!server) throw AppError.conflict('No media server is linked yet');
      const deleted = await deletePlaybackActivity(runtime.db, server.serverId, body.ids, runtime.bus);
      return { message: `Deleted ${deleted} play${deleted === 1 ? '' : 's'}`, deleted };
    },
  }),
];
