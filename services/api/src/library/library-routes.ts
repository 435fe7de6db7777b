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
import { itemsForViewer, libraryForViewer } from './viewer-scope.js';

const tag = 'library';

export const libraryRoutes = [
  route({
    method: 'get',
    path: '/api/getLibraries',
    tag,
    summary: 'Libraries with their archived flag (a viewer chooses among them for their own timeline)',
    // Names and kinds of libraries only: nothing about other people.
    access: 'signed-in',
    servers: 'one',
    response: librariesAnswer,
    handle: ({ runtime, serverId }) => runtime.services.library.libraries(serverId),
  }),
  route({
    method: 'get',
    path: '/api/getRecentlyAdded',
    tag,
    summary: 'Newest movies, episodes and tracks; episodes of one season grouped when GroupResults is true',
    access: 'admin',
    servers: 'one',
    query: recentlyAddedQuery,
    response: recentlyAddedAnswer,
    handle: ({ query, runtime, serverId }) =>
      runtime.services.library.recentlyAdded({ group: query.GroupResults, libraryId: query.libraryid, limit: query.limit }, serverId),
  }),
  route({
    method: 'post',
    path: '/api/getUserDetails',
    tag,
    summary: 'One media-server user',
    access: 'own-user',
    userOf: ({ body }) => body.userid,
    servers: 'one',
    body: userIdBody,
    response: userDetailsAnswer,
    handle: ({ body, runtime, serverId }) => runtime.services.library.user(body.userid, serverId),
  }),
  route({
    method: 'post',
    path: '/api/getLibrary',
    tag,
    summary: 'One library with its counts, runtime, plays and last activity (a viewer: their own plays)',
    access: 'own-plays',
    servers: 'one',
    body: libraryIdBody,
    response: libraryAnswer,
    handle: async ({ body, runtime, serverId, viewer }) => {
      const library = await runtime.services.library.library(body.libraryid, serverId);
      return viewer ? libraryForViewer(runtime, viewer, library, serverId) : library;
    },
  }),
  route({
    method: 'post',
    path: '/api/getItemDetails',
    tag,
    summary: 'One item (as a one-element array) with its all-time plays (a viewer: their own plays)',
    access: 'own-plays',
    servers: 'one',
    body: itemIdBody,
    response: itemsAnswer,
    handle: async ({ body, runtime, serverId, viewer }) => {
      const items = await runtime.services.library.item(body.Id, serverId);
      return viewer ? itemsForViewer(runtime, viewer, items, serverId) : items;
    },
  }),
  route({
    method: 'post',
    path: '/api/getSeasons',
    tag,
    summary: 'Seasons of a series, with episode counts and plays (a viewer: their own plays)',
    access: 'own-plays',
    servers: 'one',
    body: itemIdBody,
    response: itemsAnswer,
    handle: async ({ body, runtime, serverId, viewer }) => {
      const items = await runtime.services.library.seasons(body.Id, serverId);
      return viewer ? itemsForViewer(runtime, viewer, items, serverId) : items;
    },
  }),
  route({
    method: 'post',
    path: '/api/getEpisodes',
    tag,
    summary: 'Episodes of a season (or of a series), with plays (a viewer: their own plays)',
    access: 'own-plays',
    servers: 'one',
    body: itemIdBody,
    response: itemsAnswer,
    handle: async ({ body, runtime, serverId, viewer }) => {
      const items = await runtime.services.library.episodes(body.Id, serverId);
      return viewer ? itemsForViewer(runtime, viewer, items, serverId) : items;
    },
  }),
  route({
    method: 'post',
    path: '/api/getActivityTimeLine',
    tag,
    summary: "A user's timeline in some libraries; consecutive plays of one show (and its consecutive seasons) merged",
    access: 'own-user',
    userOf: ({ body }) => body.userId,
    servers: 'one',
    body: timelineBody,
    response: timelineAnswer,
    handle: ({ body, runtime, serverId }) => runtime.services.library.timeline(body.userId, body.libraries, serverId),
  }),
  route({
    method: 'delete',
    path: '/api/library/purge',
    tag,
    summary: 'Remove a library and its items, and with withActivity its plays too',
    access: 'admin',
    servers: 'one',
    body: purgeBody,
    response: purgeAnswer,
    handle: ({ body, runtime, serverId }) => runtime.services.library.purgeLibrary(body.id, body.withActivity, serverId),
  }),
  route({
    method: 'delete',
    path: '/api/libraryItems/purge',
    tag,
    summary: "Remove a library's items (the library stays), and with withActivity its plays too",
    access: 'admin',
    servers: 'one',
    body: purgeBody,
    response: purgeAnswer,
    handle: ({ body, runtime, serverId }) => runtime.services.library.purgeLibraryItems(body.id, body.withActivity, serverId),
  }),
  route({
    method: 'delete',
    path: '/api/item/purge',
    tag,
    summary: 'Remove an item (a series or season with its children), and with withActivity its plays too',
    access: 'admin',
    servers: 'one',
    body: purgeBody,
    response: purgeAnswer,
    handle: ({ body, runtime, serverId }) => runtime.services.library.purgeItem(body.id, body.withActivity, serverId),
  }),
];
