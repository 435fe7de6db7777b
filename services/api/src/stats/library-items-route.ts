import { libraryItemsWithStats } from '@reelstat/core';
import { itemsAnswer, libraryIdBody } from '@reelstat/core/contract';
import { route } from '../http/api-routes.js';
import { withServer } from './server-context.js';

export const libraryItemsWithStatsRoute = route({
  method: 'post',
  path: '/stats/getLibraryItemsWithStats',
  tag: 'statistics',
  summary: "A library's movies, series or tracks with all-time plays and watched seconds",
  access: 'authenticated',
  body: libraryIdBody,
  response: itemsAnswer,
  handle: ({ body, runtime }) => withServer(runtime, [], (server) => libraryItemsWithStats(runtime.db, server.serverId, body.libraryid)),
});
