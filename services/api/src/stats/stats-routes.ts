import { pageLibraryItems, wantsPagedItems, type AllServersReads, type StatisticsService } from '@reelstat/core';
import {
  chartQuery,
  clientCardAnswer,
  daysBody,
  genreLibraryQuery,
  genreStatsAnswer,
  genreUserQuery,
  globalItemBody,
  globalLibraryBody,
  globalStatsAnswer,
  globalUserBody,
  itemCardAnswer,
  itemsAnswer,
  itemTypeBody,
  lastPlayedAnswer,
  libraryCardAnswer,
  libraryCardStatsAnswer,
  libraryIdBody,
  libraryItemsPage,
  libraryItemsQuery,
  libraryMetadataAnswer,
  libraryOverviewAnswer,
  playMethodCardAnswer,
  playMethodStatsAnswer,
  playMethodStatsBody,
  userActivityAnswer,
  userCardAnswer,
  userIdBody,
  viewsAnswer,
  ALL_SERVERS,
} from '@reelstat/contract';
import type { ZodType } from 'zod';
import { route, type AnyRoute } from '../http/api-routes.js';
import type { Access } from '../http/route-access.js';
import { ownUserId, sharesServerStats } from '../library/viewer-scope.js';

/**
 * A statistics read: a route that parses its input (the body of a POST, the query of a GET), needs a login
 * and answers what the statistics service answers for the server named by `serverId` (the default one when
 * absent). With `all`, the reads that take it answer for every linked server (see AllServersReads).
 */
function read<Input, Result>(
  method: 'get' | 'post',
  path: string,
  summary: string,
  input: ZodType<Input> | undefined,
  response: ZodType<Result>,
  answer: (stats: StatisticsService, input: Input, serverId: string | undefined) => Promise<Result>,
  all?: (reads: AllServersReads, input: Input) => Promise<unknown>,
  access: Access = 'admin',
  userOf?: (input: Input) => string,
): AnyRoute {
  return route({
    method,
    path,
    tag: 'statistics',
    summary: all ? `${summary} (serverId=all: every linked server)` : summary,
    access,
    ...(userOf
      ? { userOf: ({ body, query }: { body: unknown; query: unknown }) => userOf((method === 'get' ? query : body) as Input) }
      : {}),
    servers: all ? 'all' : 'one',
    ...(input ? (method === 'get' ? { query: input } : { body: input }) : {}),
    response,
    handle: ({ body, query, runtime, serverId }) => {
      const parsed = (method === 'get' ? query : body) as Input;
      if (all && serverId === ALL_SERVERS) return all(runtime.services.allServers, parsed) as Promise<Result>;
      return answer(runtime.services.statistics, parsed, serverId);
    },
  });
}

/** SPEC.md §7 `/stats/*`, one row each, in the order of the OpenAPI document. */
// prettier-ignore
export const statsRoutes: AnyRoute[] = [
  read('post', '/stats/getMostViewedByType', 'Top 5 movies, series or tracks by plays over a window of days', itemTypeBody, itemCardAnswer, (s, body, id) => s.mostViewedByType(body, id), (a, body) => a.mostViewedByType(body), 'server-stats'),
  read('post', '/stats/getMostPopularByType', 'Top 5 movies, series or tracks by distinct viewers over a window of days', itemTypeBody, itemCardAnswer, (s, body, id) => s.mostPopularByType(body, id), (a, body) => a.mostPopularByType(body), 'server-stats'),
  read('post', '/stats/getMostViewedLibraries', 'Top 5 libraries by plays over a window of days', daysBody, libraryCardAnswer, (s, body, id) => s.mostViewedLibraries(body, id), (a, body) => a.mostViewedLibraries(body), 'server-stats'),
  read('post', '/stats/getMostUsedClient', 'Top 5 clients by plays over a window of days', daysBody, clientCardAnswer, (s, body, id) => s.mostUsedClients(body, id), (a, body) => a.mostUsedClients(body), 'server-stats'),
  read('post', '/stats/getMostActiveUsers', 'Top 5 users by plays over a window of days', daysBody, userCardAnswer, (s, body, id) => s.mostActiveUsers(body, id), (a, body) => a.mostActiveUsers(body)),
  read('post', '/stats/getPlaybackMethodStats', 'Plays per playback method over a window of days', daysBody, playMethodCardAnswer, (s, body, id) => s.playbackMethods(body, id), (a, body) => a.playbackMethods(body), 'server-stats'),
  read('get', '/stats/getLibraryOverview', 'Content counts per library (movies, series, seasons, episodes, tracks)', undefined, libraryOverviewAnswer, (s, _input, id) => s.libraryOverview(id), (a) => a.libraryOverview(), 'server-stats'),
  read('get', '/stats/getLibraryMetadata', 'Files and bytes per library', undefined, libraryMetadataAnswer, (s, _input, id) => s.libraryMetadata(id), (a) => a.libraryMetadata()),
  read('get', '/stats/getLibraryCardStats', 'Library cards: content, runtime, all-time plays and last activity', undefined, libraryCardStatsAnswer, (s, _input, id) => s.libraryCards(id), (a) => a.libraryCards()),
  read('get', '/stats/getAllUserActivity', 'The users table: all-time plays and watch time, last play and last seen', undefined, userActivityAnswer, (s, _input, id) => s.allUserActivity(id), (a) => a.allUserActivity()),
  read('post', '/stats/getUserLastPlayed', 'The last 15 different things a user played', userIdBody, lastPlayedAnswer, (s, body, id) => s.userLastPlayed(body.userid, id), undefined, 'own-user', (body) => body.userid),
  read('post', '/stats/getLibraryLastPlayed', 'The last 15 different things played in a library', libraryIdBody, lastPlayedAnswer, (s, body, id) => s.libraryLastPlayed(body.libraryid, id)),
  read('post', '/stats/getGlobalUserStats', "A user's plays and watched seconds over the last hours (9999 days: all time)", globalUserBody, globalStatsAnswer, (s, body, id) => s.userTotals(body.userid, body.hours, id), undefined, 'own-user', (body) => body.userid),
  route({
    method: 'post', path: '/stats/getGlobalLibraryStats', tag: 'statistics', access: 'own-plays', servers: 'one',
    summary: "A library's plays and watched seconds over the last hours (a viewer: their own, unless the server's are shared)",
    body: globalLibraryBody, response: globalStatsAnswer,
    handle: async ({ body, runtime, serverId, viewer }) =>
      viewer && !(await sharesServerStats(runtime))
        ? { ...(await runtime.services.library.ownTotals(ownUserId(viewer), 'library', body.libraryid, body.hours, serverId)), LibraryId: body.libraryid }
        : runtime.services.statistics.libraryTotals(body.libraryid, body.hours, serverId),
  }),
  route({
    method: 'post', path: '/stats/getGlobalItemStats', tag: 'statistics', access: 'own-plays', servers: 'one',
    summary: "An item's plays and watched seconds over the last hours, a series or season with its episodes (a viewer: their own, unless the server's are shared)",
    body: globalItemBody, response: globalStatsAnswer,
    handle: async ({ body, runtime, serverId, viewer }) =>
      viewer && !(await sharesServerStats(runtime))
        ? { ...(await runtime.services.library.ownTotals(ownUserId(viewer), 'item', body.itemid, body.hours, serverId)), ItemId: body.itemid }
        : runtime.services.statistics.itemTotals(body.itemid, body.hours, serverId),
  }),
  read('get', '/stats/getGenreUserStats', "A user's genres: the top 15 by watched seconds and the top 15 by plays", genreUserQuery, genreStatsAnswer, (s, query, id) => s.userGenres(query.userid, id), undefined, 'own-user', (query) => query.userid),
  read('get', '/stats/getGenreLibraryStats', "A library's genres: the top 15 by watched seconds and the top 15 by plays", genreLibraryQuery, genreStatsAnswer, (s, query, id) => s.libraryGenres(query.libraryid, id)),
  route({
    method: 'post', path: '/stats/getLibraryItemsWithStats', tag: 'statistics', access: 'admin',
    summary: "A library's movies, series or tracks with all-time plays and watched seconds; with size/page/sort/desc/search in the query, the paged result",
    body: libraryIdBody, query: libraryItemsQuery, response: itemsAnswer.or(libraryItemsPage), servers: 'one',
    handle: async ({ body, query, runtime, serverId }) => {
      const items = await runtime.services.statistics.libraryItems(body.libraryid, serverId);
      return wantsPagedItems(query) ? pageLibraryItems(items, query) : items;
    },
  }),
  read('post', '/stats/getLibraryItemsPlayMethodStats', 'Plays and watched seconds per playback method in a library over the last hours', playMethodStatsBody, playMethodStatsAnswer, (s, body, id) => s.libraryPlaybackMethods(body.libraryid, body.hours, id)),
  read('get', '/stats/getViewsOverTime', 'Plays and watched seconds per library per day of the window, in a time zone (all time, 9999 days or more: from the first day holding plays)', chartQuery, viewsAnswer, (s, query, id) => s.views('day', query, id), (a, query) => a.views('day', query), 'server-stats'),
  read('get', '/stats/getViewsByDays', 'Plays and watched seconds per library per weekday (Sunday first), in a time zone', chartQuery, viewsAnswer, (s, query, id) => s.views('weekday', query, id), (a, query) => a.views('weekday', query), 'server-stats'),
  read('get', '/stats/getViewsByHour', 'Plays and watched seconds per library per hour of the day, in a time zone', chartQuery, viewsAnswer, (s, query, id) => s.views('hour', query, id), (a, query) => a.views('hour', query), 'server-stats'),
];
