import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** A client must send its request headers within this time (a slow-header client is cut off). */
export const HEADERS_TIMEOUT_MS = 15_000;
/** …and its whole request (headers and body) within this one. */
export const REQUEST_TIMEOUT_MS = 120_000;
/** A connection with no traffic at all is closed after this (socket.io pings every 25 s, well within). */
export const IDLE_TIMEOUT_MS = 120_000;
/** Keep-alive connections wait this long for the next request (longer than common proxies' 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Timeouts for every phase of a connection, and a cap on the sockets one client address may hold open at
 * once: a client that opens connections and sends nothing (or a byte a minute) cannot exhaust the server.
 * Behind a reverse proxy every connection comes from the proxy: raise HTTP_MAX_SOCKETS_PER_CLIENT there.
 */
export function limitConnections(server: Server, maxSocketsPerClient: number): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.timeout = IDLE_TIMEOUT_MS;
  server.on('clientError', answerClientError);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > maxSocketsPerClient) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Requests Node refuses before they reach Express (headers too large, malformed, too slow) get the project's
 * one error shape too, rather than Node's empty answer.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (error.code === 'ECONNRESET' && !socket.readable)) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'Request headers (or the URL) are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request was not received in time']
        : [400, 'bad_request', 'Malformed HTTP request'];
  const body = JSON.stringify({ status, code, message });
  socket.end(
    `HTTP/1.1 ${status} ${code}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
