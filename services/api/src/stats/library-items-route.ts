import { libraryItemsWithStats } from '@reelstat/core';
import { itemsAnswer, libraryIdBody } from '@reelstat/contract';
import { route } from '../http/api-routes.js';
import { statisticsContext, withServer } from './server-context.js';

export const libraryItemsWithStatsRoute = route({
  method: 'post',
  path: '/stats/getLibraryItemsWithStats',
  tag: 'statistics',
  summary: "A library's movies, series or tracks with all-time plays and watched seconds",
  access: 'authenticated',
  body: libraryIdBody,
  response: itemsAnswer,
  handle: ({ body, runtime }) =>
    withServer(runtime, [], (server) =>
      statisticsContext(runtime).cachedContent(server, 'libraryItemsWithStats', body.libraryid, () =>
        libraryItemsWithStats(runtime.db, server.serverId, body.libraryid),
      ),
    ),
});
