import {
  deletePlaybackAnswer,
  deletePlaybackBody,
  historyPageAnswer,
  historyQuery,
  itemHistoryBody,
  libraryHistoryBody,
  userHistoryBody,
  ALL_SERVERS,
} from '@reelstat/contract';
import { AppError } from '@reelstat/core';
import { route } from '../http/api-routes.js';
import { ownUserId } from '../library/viewer-scope.js';

/** A viewer's view of an item's or a library's plays: a filter on their own user, added to (never replacing) theirs. */
function ownPlaysOnly<Q extends { filters: unknown[] }>(query: Q, userId: string): Q {
  return { ...query, filters: [...query.filters, { field: 'UserId', value: [userId] }] };
}

const tag = 'history';

export const historyRoutes = [
  route({
    method: 'get',
    path: '/api/getHistory',
    tag,
    summary:
      'All plays, paged (size 10/25/50/100), sorted, searched and filtered (serverId=all: every linked server); a viewer gets their own plays',
    access: 'signed-in',
    servers: 'all',
    query: historyQuery,
    response: historyPageAnswer,
    handle: ({ query, runtime, serverId, viewer }) => {
      if (viewer) {
        // A viewer's history is their own plays, on their own server (http/route-access.ts).
        if (!viewer.mediaUser) throw AppError.forbidden('Your sign-in is not linked to a media-server user');
        return runtime.services.history.page({ kind: 'user', id: viewer.mediaUser.userId }, query, serverId);
      }
      return serverId === ALL_SERVERS
        ? runtime.services.allServers.historyPage(query)
        : runtime.services.history.page({ kind: 'all' }, query, serverId);
    },
  }),
  route({
    method: 'post',
    path: '/api/getUserHistory',
    tag,
    summary: "A user's plays, paged like getHistory",
    access: 'own-user',
    userOf: ({ body }) => body.userid,
    servers: 'one',
    query: historyQuery,
    body: userHistoryBody,
    response: historyPageAnswer,
    handle: ({ query, body, runtime, serverId }) => runtime.services.history.page({ kind: 'user', id: body.userid }, query, serverId),
  }),
  route({
    method: 'post',
    path: '/api/getLibraryHistory',
    tag,
    summary: "A library's plays, paged like getHistory (a viewer: their own plays)",
    access: 'own-plays',
    servers: 'one',
    query: historyQuery,
    body: libraryHistoryBody,
    response: historyPageAnswer,
    handle: ({ query, body, runtime, serverId, viewer }) =>
      runtime.services.history.page(
        { kind: 'library', id: body.libraryid },
        viewer ? ownPlaysOnly(query, ownUserId(viewer)) : query,
        serverId,
      ),
  }),
  route({
    method: 'post',
    path: '/api/getItemHistory',
    tag,
    summary: "An item's plays (a series or season includes its episodes), paged like getHistory (a viewer: their own plays)",
    access: 'own-plays',
    servers: 'one',
    query: historyQuery,
    body: itemHistoryBody,
    response: historyPageAnswer,
    handle: ({ query, body, runtime, serverId, viewer }) =>
      runtime.services.history.page({ kind: 'item', id: body.itemid }, viewer ? ownPlaysOnly(query, ownUserId(viewer)) : query, serverId),
  }),
  route({
    method: 'post',
    path: '/api/deletePlaybackActivity',
    tag,
    summary: 'Delete plays by id; statistics are corrected in the same transaction',
    access: 'admin',
    servers: 'one',
    body: deletePlaybackBody,
    response: deletePlaybackAnswer,
    handle: ({ body, runtime, serverId }) => runtime.services.history.deletePlays(body.ids, serverId),
  }),
];
