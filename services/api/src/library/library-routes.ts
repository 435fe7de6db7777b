import {
  AppError,
  activityTimeline,
  episodesOf,
  itemDetails,
  libraryCards,
  libraryList,
  purgeItem,
  purgeLibrary,
  recentlyAdded,
  seasonsOf,
  userDetails,
  type Runtime,
} from '@reelstat/core';
import {
  itemIdBody,
  itemsAnswer,
  libraryAnswer,
  libraryIdBody,
  librariesAnswer,
  purgeAnswer,
  purgeBody,
  recentlyAddedAnswer,
  recentlyAddedQuery,
  timelineAnswer,
  timelineBody,
  userDetailsAnswer,
  userIdBody,
} from '@reelstat/contract';
import { route } from '../http/api-routes.js';
import { statisticsContext, withServer } from '../stats/server-context.js';

const tag = 'library';

async function requireServer(runtime: Runtime) {
  const server = await statisticsContext(runtime).server();
  if (!server) throw AppError.conflict('No media server is linked yet');
  return server;
}

function purgeMessage(what: string, result: { items: number; plays: number }) {
  return `Purged ${what}: ${result.items} item${result.items === 1 ? '' : 's'} and ${result.plays} play${result.plays === 1 ? '' : 's'} removed`;
}

export const libraryRoutes = [
  route({
    method: 'get',
    path: '/api/getLibraries',
    tag,
    summary: 'Libraries with their archived flag',
    access: 'authenticated',
    response: librariesAnswer,
    handle: ({ runtime }) => withServer(runtime, [], (server) => libraryList(runtime.db, server.serverId)),
  }),
  route({
    method: 'get',
    path: '/api/getRecentlyAdded',
    tag,
    summary: 'Newest movies, episodes and tracks; episodes of one season grouped when GroupResults is true',
    access: 'authenticated',
    query: recentlyAddedQuery,
    response: recentlyAddedAnswer,
    handle: ({ query, runtime }) =>
      withServer(runtime, [], (server) =>
        statisticsContext(runtime).cachedContent(server, 'recentlyAdded', query, () =>
          recentlyAdded(runtime.db, server.serverId, { group: query.GroupResults, libraryId: query.libraryid, limit: query.limit }),
        ),
      ),
  }),
  route({
    method: 'post',
    path: '/api/getUserDetails',
    tag,
    summary: 'One media-server user',
    access: 'authenticated',
    body: userIdBody,
    response: userDetailsAnswer,
    handle: async ({ body, runtime }) => {
      const server = await requireServer(runtime);
      const user = await userDetails(runtime.db, server.serverId, body.userid);
      if (!user) throw AppError.notFound('User not found');
      return user;
    },
  }),
  route({
    method: 'post',
    path: '/api/getLibrary',
    tag,
    summary: 'One library with its counts, runtime, plays and last activity',
    access: 'authenticated',
    body: libraryIdBody,
    response: libraryAnswer,
    handle: async ({ body, runtime }) => {
      const server = await requireServer(runtime);
      const [library] = await libraryCards(runtime.db, server.serverId, body.libraryid);
      if (!library) throw AppError.notFound('Library not found');
      return library;
    },
  }),
  route({
    method: 'post',
    path: '/api/getItemDetails',
    tag,
    summary: 'One item (as a one-element array) with its all-time plays',
    access: 'authenticated',
    body: itemIdBody,
    response: itemsAnswer,
    handle: async ({ body, runtime }) => {
      const server = await requireServer(runtime);
      const item = await itemDetails(runtime.db, server.serverId, body.Id);
      if (!item) throw AppError.notFound('Item not found');
      return [item];
    },
  }),
  route({
    method: 'post',
    path: '/api/getSeasons',
    tag,
    summary: 'Seasons of a series, with episode counts and plays',
    access: 'authenticated',
    body: itemIdBody,
    response: itemsAnswer,
    handle: ({ body, runtime }) => withServer(runtime, [], (server) => seasonsOf(runtime.db, server.serverId, body.Id)),
  }),
  route({
    method: 'post',
    path: '/api/getEpisodes',
    tag,
    summary: 'Episodes of a season (or of a series), with plays',
    access: 'authenticated',
    body: itemIdBody,
    response: itemsAnswer,
    handle: ({ body, runtime }) => withServer(runtime, [], (server) => episodesOf(runtime.db, server.serverId, body.Id)),
  }),
  route({
    method: 'post',
    path: '/api/getActivityTimeLine',
    tag,
    summary: "A user's timeline in some libraries; consecutive plays of one show (and its consecutive seasons) merged",
    access: 'authenticated',
    body: timelineBody,
    response: timelineAnswer,
    handle: ({ body, runtime }) =>
      withServer(runtime, [], (server) => activityTimeline(runtime.db, server.serverId, body.userId, body.libraries)),
  }),
  route({
    method: 'delete',
    path: '/api/library/purge',
    tag,
    summary: 'Remove a library and its items, and with withActivity its plays too',
    access: 'authenticated',
    body: purgeBody,
    response: purgeAnswer,
    handle: async ({ body, runtime }) => {
      const server = await requireServer(runtime);
      const result = await purgeLibrary(
        runtime.db,
        server.serverId,
        body.id,
        { withActivity: body.withActivity, keepLibrary: false },
        runtime.bus,
      );
      statisticsContext(runtime).answers.clear();
      if (result.libraries === 0 && result.items === 0 && result.plays === 0) throw AppError.notFound('Library not found');
      return { message: purgeMessage('library', result), ...result };
    },
  }),
  route({
    method: 'delete',
    path: '/api/libraryItems/purge',
    tag,
    summary: "Remove a library's items (the library stays), and with withActivity its plays too",
    access: 'authenticated',
    body: purgeBody,
    response: purgeAnswer,
    handle: async ({ body, runtime }) => {
      const server = await requireServer(runtime);
      const result = await purgeLibrary(
        runtime.db,
        server.serverId,
        body.id,
        { withActivity: body.withActivity, keepLibrary: true },
        runtime.bus,
      );
      statisticsContext(runtime).answers.clear();
      return { message: purgeMessage('library items', result), ...result };
    },
  }),
  route({
    method: 'delete',
    path: '/api/item/purge',
    tag,
    summary: 'Remove an item (a series or season with its children), and with withActivity its plays too',
    access: 'authenticated',
    body: purgeBody,
    response: purgeAnswer,
    handle: async ({ body, runtime }) => {
      const server = await requireServer(runtime);
      const result = await purgeItem(runtime.db, server.serverId, body.id, body.withActivity, runtime.bus);
      statisticsContext(runtime).answers.clear();
      if (result.items === 0 && result.plays === 0) throw AppError.notFound('Item not found');
      return { message: purgeMessage('item', result), ...result };
    },
  }),
];
