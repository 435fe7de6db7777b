import {
  deletePlaybackAnswer,
  deletePlaybackBody,
  historyPageAnswer,
  historyQuery,
  itemHistoryBody,
  libraryHistoryBody,
  userHistoryBody,
} from '@reelstat/contract';
import { route } from '../http/api-routes.js';

const tag = 'history';

export const historyRoutes = [
  route({
    method: 'get',
    path: '/api/getHistory',
    tag,
    summary: 'All plays, paged (size 10/25/50/100), sorted, searched and filtered',
    access: 'authenticated',
    query: historyQuery,
    response: historyPageAnswer,
    handle: ({ query, runtime }) => runtime.services.history.page({ kind: 'all' }, query),
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
    handle: ({ query, body, runtime }) => runtime.services.history.page({ kind: 'user', id: body.userid }, query),
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
    handle: ({ query, body, runtime }) => runtime.services.history.page({ kind: 'library', id: body.libraryid }, query),
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
    handle: ({ query, body, runtime }) => runtime.services.history.page({ kind: 'item', id: body.itemid }, query),
  }),
  route({
    method: 'post',
    path: '/api/deletePlaybackActivity',
    tag,
    summary: 'Delete plays by id; statistics are corrected in the same transaction',
    access: 'authenticated',
    body: deletePlaybackBody,
    response: deletePlaybackAnswer,
    handle: ({ body, runtime }) => runtime.services.history.deletePlays(body.ids),
  }),
];
