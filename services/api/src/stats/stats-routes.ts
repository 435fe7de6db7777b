import {
  allUserActivity,
  globalStats,
  lastPlayed,
  libraryCards,
  libraryGenres,
  libraryMetadata,
  libraryOverview,
  playMethodCounts,
  playMethodWindow,
  topClients,
  topItems,
  topLibraries,
  topUsers,
  userGenres,
  viewsChart,
  type ChartKind,
  type Runtime,
  type ServerContext,
} from '@reelstat/core';
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
  itemTypeBody,
  lastPlayedAnswer,
  libraryCardAnswer,
  libraryCardStatsAnswer,
  libraryIdBody,
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
import { route } from '../http/api-routes.js';
import { libraryItemsWithStatsRoute } from './library-items-route.js';
import { statisticsContext, withServer } from './server-context.js';

const tag = 'statistics';
const zone = (runtime: Runtime, tz: string | undefined) => statisticsContext(runtime).timeZone(tz);

/** A window of days in a zone, answered from the answer cache when nothing it depends on changed. */
function dayWindow<T>(
  runtime: Runtime,
  server: ServerContext,
  call: string,
  body: { days: number; tz?: string | undefined },
  read: (tz: string) => Promise<T>,
) {
  const tz = zone(runtime, body.tz);
  return statisticsContext(runtime).cachedDayWindow(server, call, tz, body, () => read(tz));
}

function chartRoute(path: string, kind: ChartKind, summary: string) {
  return route({
    method: 'get',
    path,
    tag,
    summary,
    access: 'authenticated',
    query: chartQuery,
    response: viewsAnswer,
    handle: ({ query, runtime }) =>
      withServer(runtime, { stats: [], libraries: [] }, (server) => {
        const tz = zone(runtime, query.tz);
        return statisticsContext(runtime).cachedDayWindow(server, path, tz, query.days, () =>
          viewsChart(runtime.db, server.serverId, tz, query.days, kind),
        );
      }),
  });
}

export const statsRoutes = [
  route({
    method: 'post',
    path: '/stats/getMostViewedByType',
    tag,
    summary: 'Top 5 movies, series or tracks by plays over a window of days',
    access: 'authenticated',
    body: itemTypeBody,
    response: itemCardAnswer,
    handle: ({ body, runtime }) =>
      withServer(runtime, [], (server) =>
        dayWindow(runtime, server, 'topItems, body.type, plays', body, (tz) =>
          topItems(runtime.db, server.serverId, tz, body.days, body.type, 'plays'),
        ),
      ),
  }),
  route({
    method: 'post',
    path: '/stats/getMostPopularByType',
    tag,
    summary: 'Top 5 movies, series or tracks by distinct viewers over a window of days',
    access: 'authenticated',
    body: itemTypeBody,
    response: itemCardAnswer,
    handle: ({ body, runtime }) =>
      withServer(runtime, [], (server) =>
        dayWindow(runtime, server, 'topItems, body.type, viewers', body, (tz) =>
          topItems(runtime.db, server.serverId, tz, body.days, body.type, 'viewers'),
        ),
      ),
  }),
  route({
    method: 'post',
    path: '/stats/getMostViewedLibraries',
    tag,
    summary: 'Top 5 libraries by plays over a window of days',
    access: 'authenticated',
    body: daysBody,
    response: libraryCardAnswer,
    handle: ({ body, runtime }) =>
      withServer(runtime, [], (server) =>
        dayWindow(runtime, server, 'topLibraries', body, (tz) => topLibraries(runtime.db, server.serverId, tz, body.days)),
      ),
  }),
  route({
    method: 'post',
    path: '/stats/getMostUsedClient',
    tag,
    summary: 'Top 5 clients by plays over a window of days',
    access: 'authenticated',
    body: daysBody,
    response: clientCardAnswer,
    handle: ({ body, runtime }) =>
      withServer(runtime, [], (server) =>
        dayWindow(runtime, server, 'topClients', body, (tz) => topClients(runtime.db, server.serverId, tz, body.days)),
      ),
  }),
  route({
    method: 'post',
    path: '/stats/getMostActiveUsers',
    tag,
    summary: 'Top 5 users by plays over a window of days',
    access: 'authenticated',
    body: daysBody,
    response: userCardAnswer,
    handle: ({ body, runtime }) =>
      withServer(runtime, [], (server) =>
        dayWindow(runtime, server, 'topUsers', body, (tz) => topUsers(runtime.db, server.serverId, tz, body.days)),
      ),
  }),
  route({
    method: 'post',
    path: '/stats/getPlaybackMethodStats',
    tag,
    summary: 'Plays per playback method over a window of days',
    access: 'authenticated',
    body: daysBody,
    response: playMethodCardAnswer,
    handle: ({ body, runtime }) =>
      withServer(runtime, [], (server) =>
        dayWindow(runtime, server, 'playMethodCounts', body, (tz) => playMethodCounts(runtime.db, server.serverId, tz, body.days)),
      ),
  }),
  route({
    method: 'get',
    path: '/stats/getLibraryOverview',
    tag,
    summary: 'Content counts per library (movies, series, seasons, episodes, tracks)',
    access: 'authenticated',
    response: libraryOverviewAnswer,
    handle: ({ runtime }) =>
      withServer(runtime, [], (server) =>
        statisticsContext(runtime).cachedContent(server, 'libraryOverview', null, () => libraryOverview(runtime.db, server.serverId)),
      ),
  }),
  route({
    method: 'get',
    path: '/stats/getLibraryMetadata',
    tag,
    summary: 'Files and bytes per library',
    access: 'authenticated',
    response: libraryMetadataAnswer,
    handle: ({ runtime }) =>
      withServer(runtime, [], (server) =>
        statisticsContext(runtime).cachedContent(server, 'libraryMetadata', null, () => libraryMetadata(runtime.db, server.serverId)),
      ),
  }),
  route({
    method: 'get',
    path: '/stats/getLibraryCardStats',
    tag,
    summary: 'Library cards: content, runtime, all-time plays and last activity',
    access: 'authenticated',
    response: libraryCardStatsAnswer,
    handle: ({ runtime }) =>
      withServer(runtime, [], (server) =>
        statisticsContext(runtime).cachedContent(server, 'libraryCards', null, () => libraryCards(runtime.db, server.serverId)),
      ),
  }),
  route({
    method: 'get',
    path: '/stats/getAllUserActivity',
    tag,
    summary: 'The users table: all-time plays and watch time, last play and last seen',
    access: 'authenticated',
    response: userActivityAnswer,
    handle: ({ runtime }) =>
      withServer(runtime, [], (server) =>
        statisticsContext(runtime).cachedContent(server, 'allUserActivity', null, () => allUserActivity(runtime.db, server.serverId)),
      ),
  }),
  route({
    method: 'post',
    path: '/stats/getUserLastPlayed',
    tag,
    summary: 'The last 15 different things a user played',
    access: 'authenticated',
    body: userIdBody,
    response: lastPlayedAnswer,
    handle: ({ body, runtime }) => withServer(runtime, [], (server) => lastPlayed(runtime.db, server.serverId, 'user', body.userid)),
  }),
  route({
    method: 'post',
    path: '/stats/getLibraryLastPlayed',
    tag,
    summary: 'The last 15 different things played in a library',
    access: 'authenticated',
    body: libraryIdBody,
    response: lastPlayedAnswer,
    handle: ({ body, runtime }) => withServer(runtime, [], (server) => lastPlayed(runtime.db, server.serverId, 'library', body.libraryid)),
  }),
  route({
    method: 'post',
    path: '/stats/getGlobalUserStats',
    tag,
    summary: "A user's plays and watched seconds over the last hours (9999 days: all time)",
    access: 'authenticated',
    body: globalUserBody,
    response: globalStatsAnswer,
    handle: async ({ body, runtime }) => ({
      ...(await withServer(runtime, { Plays: 0, total_playback_duration: 0 }, (server) =>
        globalStats(runtime.db, server.serverId, 'user', body.userid, body.hours),
      )),
      UserId: body.userid,
    }),
  }),
  route({
    method: 'post',
    path: '/stats/getGlobalLibraryStats',
    tag,
    summary: "A library's plays and watched seconds over the last hours",
    access: 'authenticated',
    body: globalLibraryBody,
    response: globalStatsAnswer,
    handle: async ({ body, runtime }) => ({
      ...(await withServer(runtime, { Plays: 0, total_playback_duration: 0 }, (server) =>
        globalStats(runtime.db, server.serverId, 'library', body.libraryid, body.hours, (key, compute) =>
          statisticsContext(runtime).cachedContent(server, key, null, compute),
        ),
      )),
      LibraryId: body.libraryid,
    }),
  }),
  route({
    method: 'post',
    path: '/stats/getGlobalItemStats',
    tag,
    summary: "An item's plays and watched seconds over the last hours (a series or season includes its episodes)",
    access: 'authenticated',
    body: globalItemBody,
    response: globalStatsAnswer,
    handle: async ({ body, runtime }) => ({
      ...(await withServer(runtime, { Plays: 0, total_playback_duration: 0 }, (server) =>
        globalStats(runtime.db, server.serverId, 'item', body.itemid, body.hours),
      )),
      ItemId: body.itemid,
    }),
  }),
  route({
    method: 'get',
    path: '/stats/getGenreUserStats',
    tag,
    summary: "A user's genres: the top 15 by watched seconds and the top 15 by plays",
    access: 'authenticated',
    query: genreUserQuery,
    response: genreStatsAnswer,
    handle: async ({ query, runtime }) => ({
      results: await withServer(runtime, [], (server) =>
        statisticsContext(runtime).cachedContent(server, 'userGenres', query.userid, () =>
          userGenres(runtime.db, server.serverId, query.userid),
        ),
      ),
    }),
  }),
  route({
    method: 'get',
    path: '/stats/getGenreLibraryStats',
    tag,
    summary: "A library's genres: the top 15 by watched seconds and the top 15 by plays",
    access: 'authenticated',
    query: genreLibraryQuery,
    response: genreStatsAnswer,
    handle: async ({ query, runtime }) => ({
      results: await withServer(runtime, [], (server) =>
        statisticsContext(runtime).cachedContent(server, 'libraryGenres', query.libraryid, () =>
          libraryGenres(runtime.db, server.serverId, query.libraryid),
        ),
      ),
    }),
  }),
  libraryItemsWithStatsRoute,
  route({
    method: 'post',
    path: '/stats/getLibraryItemsPlayMethodStats',
    tag,
    summary: 'Plays and watched seconds per playback method in a library over the last hours',
    access: 'authenticated',
    body: playMethodStatsBody,
    response: playMethodStatsAnswer,
    handle: ({ body, runtime }) =>
      withServer(runtime, { stats: [], types: [] as string[] }, (server) =>
        playMethodWindow(runtime.db, server.serverId, body.libraryid, body.hours),
      ),
  }),
  chartRoute('/stats/getViewsOverTime', 'day', 'Plays and watched seconds per library per day of the window, in a time zone'),
  chartRoute('/stats/getViewsByDays', 'weekday', 'Plays and watched seconds per library per weekday (Sunday first), in a time zone'),
  chartRoute('/stats/getViewsByHour', 'hour', 'Plays and watched seconds per library per hour of the day, in a time zone'),
];
