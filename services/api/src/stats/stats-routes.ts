import { pageLibraryItems, wantsPagedItems, type StatisticsService } from '@reelstat/core';
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
} from '@reelstat/contract';
import type { ZodType } from 'zod';
import { route, type AnyRoute } from '../http/api-routes.js';

/**
 * A statistics read: a route that parses its input (the body of a POST, the query of a GET), needs a login
 * and answers what the statistics service answers.
 */
function read<Input, Result>(
  method: 'get' | 'post',
  path: string,
  summary: string,
  input: ZodType<Input> | undefined,
  response: ZodType<Result>,
  answer: (stats: StatisticsService, input: Input) => Promise<Result>,
): AnyRoute {
  return route({
    method,
    path,
    tag: 'statistics',
    summary,
    access: 'authenticated',
    ...(input ? (method === 'get' ? { query: input } : { body: input }) : {}),
    response,
    handle: ({ body, query, runtime }) => answer(runtime.services.statistics, (method === 'get' ? query : body) as Input),
  });
}

/** SPEC.md §7 `/stats/*`, one row each, in the order of the OpenAPI document. */
// prettier-ignore
export const statsRoutes: AnyRoute[] = [
  read('post', '/stats/getMostViewedByType', 'Top 5 movies, series or tracks by plays over a window of days', itemTypeBody, itemCardAnswer, (s, body) => s.mostViewedByType(body)),
  read('post', '/stats/getMostPopularByType', 'Top 5 movies, series or tracks by distinct viewers over a window of days', itemTypeBody, itemCardAnswer, (s, body) => s.mostPopularByType(body)),
  read('post', '/stats/getMostViewedLibraries', 'Top 5 libraries by plays over a window of days', daysBody, libraryCardAnswer, (s, body) => s.mostViewedLibraries(body)),
  read('post', '/stats/getMostUsedClient', 'Top 5 clients by plays over a window of days', daysBody, clientCardAnswer, (s, body) => s.mostUsedClients(body)),
  read('post', '/stats/getMostActiveUsers', 'Top 5 users by plays over a window of days', daysBody, userCardAnswer, (s, body) => s.mostActiveUsers(body)),
  read('post', '/stats/getPlaybackMethodStats', 'Plays per playback method over a window of days', daysBody, playMethodCardAnswer, (s, body) => s.playbackMethods(body)),
  read('get', '/stats/getLibraryOverview', 'Content counts per library (movies, series, seasons, episodes, tracks)', undefined, libraryOverviewAnswer, (s) => s.libraryOverview()),
  read('get', '/stats/getLibraryMetadata', 'Files and bytes per library', undefined, libraryMetadataAnswer, (s) => s.libraryMetadata()),
  read('get', '/stats/getLibraryCardStats', 'Library cards: content, runtime, all-time plays and last activity', undefined, libraryCardStatsAnswer, (s) => s.libraryCards()),
  read('get', '/stats/getAllUserActivity', 'The users table: all-time plays and watch time, last play and last seen', undefined, userActivityAnswer, (s) => s.allUserActivity()),
  read('post', '/stats/getUserLastPlayed', 'The last 15 different things a user played', userIdBody, lastPlayedAnswer, (s, body) => s.userLastPlayed(body.userid)),
  read('post', '/stats/getLibraryLastPlayed', 'The last 15 different things played in a library', libraryIdBody, lastPlayedAnswer, (s, body) => s.libraryLastPlayed(body.libraryid)),
  read('post', '/stats/getGlobalUserStats', "A user's plays and watched seconds over the last hours (9999 days: all time)", globalUserBody, globalStatsAnswer, (s, body) => s.userTotals(body.userid, body.hours)),
  read('post', '/stats/getGlobalLibraryStats', "A library's plays and watched seconds over the last hours", globalLibraryBody, globalStatsAnswer, (s, body) => s.libraryTotals(body.libraryid, body.hours)),
  read('post', '/stats/getGlobalItemStats', "An item's plays and watched seconds over the last hours (a series or season includes its episodes)", globalItemBody, globalStatsAnswer, (s, body) => s.itemTotals(body.itemid, body.hours)),
  read('get', '/stats/getGenreUserStats', "A user's genres: the top 15 by watched seconds and the top 15 by plays", genreUserQuery, genreStatsAnswer, (s, query) => s.userGenres(query.userid)),
  read('get', '/stats/getGenreLibraryStats', "A library's genres: the top 15 by watched seconds and the top 15 by plays", genreLibraryQuery, genreStatsAnswer, (s, query) => s.libraryGenres(query.libraryid)),
  route({
    method: 'post', path: '/stats/getLibraryItemsWithStats', tag: 'statistics', access: 'authenticated',
    summary: "A library's movies, series or tracks with all-time plays and watched seconds; with size/page/sort/desc/search in the query, the paged result",
    body: libraryIdBody, query: libraryItemsQuery, response: itemsAnswer.or(libraryItemsPage),
    handle: async ({ body, query, runtime }) => {
      const items = await runtime.services.statistics.libraryItems(body.libraryid);
      return wantsPagedItems(query) ? pageLibraryItems(items, query) : items;
    },
  }),
  read('post', '/stats/getLibraryItemsPlayMethodStats', 'Plays and watched seconds per playback method in a library over the last hours', playMethodStatsBody, playMethodStatsAnswer, (s, body) => s.libraryPlaybackMethods(body.libraryid, body.hours)),
  read('get', '/stats/getViewsOverTime', 'Plays and watched seconds per library per day of the window, in a time zone', chartQuery, viewsAnswer, (s, query) => s.views('day', query)),
  read('get', '/stats/getViewsByDays', 'Plays and watched seconds per library per weekday (Sunday first), in a time zone', chartQuery, viewsAnswer, (s, query) => s.views('weekday', query)),
  read('get', '/stats/getViewsByHour', 'Plays and watched seconds per library per hour of the day, in a time zone', chartQuery, viewsAnswer, (s, query) => s.views('hour', query)),
];
