import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { AppError, type CsvExport, type ExportKind, type Principal, type Runtime } from '@reelstat/core';
import { downloadQuery, downloadTicketAnswer, historyExportQuery, usersExportQuery, ALL_SERVERS } from '@reelstat/contract';
import { route } from '../http/api-routes.js';
import { credentialsOf } from '../auth/authenticate.js';

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

/** The export a query asks for, on a server (undefined: the default one; 'all': every linked server). */
async function csvOf(runtime: Runtime, kind: ExportKind, rawQuery: unknown, serverId: string | undefined): Promise<CsvExport> {
  const one = serverId === ALL_SERVERS ? undefined : serverId;
  return kind === 'history'
    ? runtime.services.exports.history(historyExportQuery.parse(rawQuery), one, serverId === ALL_SERVERS)
    : runtime.services.exports.users(usersExportQuery.parse(rawQuery), one, serverId === ALL_SERVERS);
}

/** A ticket for the export the request's query describes, once its access was checked as for the export. */
async function issueTicket(
  runtime: Runtime,
  principal: Principal | undefined,
  kind: ExportKind,
  rawQuery: unknown,
  serverId: string | undefined,
) {
  if (!principal) throw AppError.unauthorized();
  const { ticket, expiresInSeconds } = await runtime.services.downloadTickets.issue({
    principal,
    export: kind,
    query: rawQuery as Record<string, unknown>,
    serverId: serverId ?? null,
  });
  return { ticket, url: `/api/download?ticket=${encodeURIComponent(ticket)}`, expiresInSeconds };
}

const samePrincipal = (a: Principal, b: Principal) => a.kind === b.kind && a.accountId === b.accountId && a.username === b.username;

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
  // Tickets: the same access, query and server as the export; the browser then follows GET /api/download.
  route({
    method: 'post',
    path: '/api/exportHistory/ticket',
    tag,
    summary: 'A single-use link (valid 60 s) to save the history export this query describes (as GET /api/exportHistory takes it)',
    access: 'own-user',
    userOf: ({ query }) => query.userId,
    servers: 'all',
    query: historyExportQuery,
    response: downloadTicketAnswer,
    handle: ({ req, principal, runtime, serverId }) => issueTicket(runtime, principal, 'history', req.query, serverId),
  }),
  route({
    method: 'post',
    path: '/api/exportUsers/ticket',
    tag,
    summary: 'A single-use link (valid 60 s) to save the users table export this query describes',
    access: 'admin',
    servers: 'all',
    query: usersExportQuery,
    response: downloadTicketAnswer,
    handle: ({ req, principal, runtime, serverId }) => issueTicket(runtime, principal, 'users', req.query, serverId),
  }),
  route({
    method: 'get',
    path: '/api/download',
    tag,
    summary:
      "Saves the export a ticket names, once, within 60 s of its making (401 when used or expired; 403 when sent with another account's credentials)",
    // The ticket is the credential: a browser cannot send the token header when it navigates to a download.
    access: 'public',
    query: downloadQuery,
    produces: 'text/csv',
    handle: async ({ query, req, runtime, res }) => {
      const ticket = await runtime.services.downloadTickets.redeem(query.ticket);
      if (!ticket) throw AppError.unauthorized('This download link was used or has expired: start the download again');
      const { token, apiKey } = credentialsOf(req.headers);
      if ((token || apiKey) && req.principal && !samePrincipal(req.principal, ticket.principal))
        throw AppError.forbidden('This download link belongs to another account');
      await sendCsv(res, await csvOf(runtime, ticket.export, ticket.query, ticket.serverId ?? undefined));
    },
  }),
];
