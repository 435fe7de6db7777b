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
