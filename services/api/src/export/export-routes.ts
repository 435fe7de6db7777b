import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { CsvExport } from '@reelstat/core';
import { historyExportQuery, usersExportQuery, ALL_SERVERS } from '@reelstat/contract';
import { route } from '../http/api-routes.js';

const tag = 'export';

/**
 * Streams a CSV download into the response: the response pulls lines as the client reads (pipeline respects
 * backpressure), and a client that goes away stops the export (its cursor and connection close).
 */
async function sendCsv(res: Response, file: CsvExport): Promise<void> {
  res.status(200);
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="${file.fileName}"`);
  res.setHeader('cache-control', 'no-store');
  try {
    await pipeline(Readable.from(file.lines), res);
  } catch (error) {
    // The client went away (a cancelled download): nothing to answer, the export has already stopped.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw error;
  }
}

/*
 * Access: a history export is 'own-user' (a viewer exports their own plays: userId = their media-server user;
 * without it, or with a library or item, a viewer gets 403); the users table is for administrators.
 */
export const exportRoutes = [
  route({
    method: 'get',
    path: '/api/exportHistory',
    tag,
    summary:
      'The history view in force as CSV (search, sort, desc and filters as getHistory takes them; userId, libraryId or itemId for one ' +
      "user's, library's or item's plays), one play a line, streamed; bom=true starts it with a UTF-8 byte order mark; a viewer " +
      'exports their own plays (userId)',
    access: 'own-user',
    userOf: ({ query }) => query.userId,
    servers: 'all',
    query: historyExportQuery,
    produces: 'text/csv',
    handle: async ({ query, runtime, serverId, res }) =>
      sendCsv(
        res,
        await runtime.services.exports.history(query, serverId === ALL_SERVERS ? undefined : serverId, serverId === ALL_SERVERS),
      ),
  }),
  route({
    method: 'get',
    path: '/api/exportUsers',
    tag,
    summary: 'The users table as CSV (search, sort and desc as the table has them)',
    access: 'admin',
    servers: 'all',
    query: usersExportQuery,
    produces: 'text/csv',
    handle: async ({ query, runtime, serverId, res }) =>
      sendCsv(res, await runtime.services.exports.users(query, serverId === ALL_SERVERS ? undefined : serverId, serverId === ALL_SERVERS)),
  }),
];
