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
import { route } from '../http/api-routes.js';

const tag = 'history';

export const historyRoutes = [
  route({
    method: 'get',
    path: '/api/getHistory',
    tag,
    summary: 'All plays, paged (size 10/25/50/100), sorted, searched and filtered (serverId=all: every linked server)',
    access: 'authenticated',
    servers: 'all',
    query: historyQuery,
    response: historyPageAnswer,
    handle: ({ query, runtime, serverId }) =>
      serverId === ALL_SERVERS
        ? runtime.services.allServers.historyPage(query)
        : runtime.services.history.page({ kind: 'all' }, query, serverId),
  }),
  route({
    method: 'post',
    path: '/api/getUserHistory',
    tag,
    summary: "A user's plays, paged like getHistory",
    access: 'authenticated',
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
    summary: "A library's plays, paged like getHistory",
    access: 'authenticated',
    servers: 'one',
    query: historyQuery,
    body: libraryHistoryBody,
    response: historyPageAnswer,
    handle: ({ query, body, runtime, serverId }) => runtime.services.history.page({ kind: 'library', id: body.libraryid }, query, serverId),
  }),
  route({
    method: 'post',
    path: '/api/getItemHistory',
    tag,
    summary: "An item's plays (a series or season includes its episodes), paged like getHistory",
    access: 'authenticated',
    servers: 'one',
    query: historyQuery,
    body: itemHistoryBody,
    response: historyPageAnswer,
    handle: ({ query, body, runtime, serverId }) => runtime.services.history.page({ kind: 'item', id: body.itemid }, query, serverId),
  }),
  route({
    method: 'post',
    path: '/api/deletePlaybackActivity',
    tag,
    summary: 'Delete plays by id; statistics are corrected in the same transaction',
    access: 'authenticated',
    servers: 'one',
    body: deletePlaybackBody,
    response: deletePlaybackAnswer,
    handle: ({ body, runtime, serverId }) => runtime.services.history.deletePlays(body.ids, serverId),
  }),
];
