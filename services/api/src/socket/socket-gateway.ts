import type { Server as HttpServer } from 'node:http';
import { Server as SocketServer } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { UI_EVENTS_CHANNEL, type Runtime, type UiEvent } from '@reelstat/core';
import { resolvePrincipal } from '../auth/authenticate.js';

/** Events whose latest payload is the current state (not a one-off notification). */
const STATE_EVENTS = new Set(['sessions', 'task-list']);

/**
 * socket.io at BASE_URL/socket.io/. In a cluster the Redis adapter lets any replica broadcast to every
 * browser. Roles that hold no sockets (the scheduler) publish UiEvents on the bus; each API replica relays
 * them to its own sockets only (io.local), so every browser receives each event once.
 */
export async function attachSocketGateway(
  httpServer: HttpServer,
  runtime: Runtime,
): Promise<{ io: SocketServer; close: () => Promise<void> }> {
  const io = new SocketServer(httpServer, {
    path: `${runtime.config.baseUrl}/socket.io/`,
    serveClient: false,
    cors: { origin: false },
  });
  // Sockets carry live sessions and task events: the same credentials as the HTTP API are required, given as
  // the handshake's auth.token (login token) or auth.apiKey, or the usual headers. Every session and task of the
  // server goes to every socket, so only administrators connect (a viewer's own sessions are an HTTP call).
  io.use((socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as { token?: unknown; apiKey?: unknown };
    const headers: Record<string, string | string[] | undefined> = { ...socket.handshake.headers };
    if (typeof auth.token === 'string') headers.authorization = `Bearer ${auth.token}`;
    if (typeof auth.apiKey === 'string') headers['x-api-token'] = auth.apiKey;
    resolvePrincipal(runtime, headers).then(
      (principal) => (principal?.role === 'admin' ? next() : next(new Error(principal ? 'forbidden' : 'unauthorized'))),
      () => next(new Error('unauthorized')),
    );
  });
  const redisClients: Redis[] = [];
  if (runtime.config.redisUrl) {
    const pub = new Redis(runtime.config.redisUrl, { maxRetriesPerRequest: null });
    const sub = pub.duplicate();
    for (const client of [pub, sub])
      client.on('error', (error) => runtime.logger.warn({ err: error.message }, 'redis (socket adapter) error'));
    redisClients.push(pub, sub);
    io.adapter(createAdapter(pub, sub, { key: `${runtime.config.redisKeyPrefix}:socket.io` }));
  }
  // Events that describe current state are replayed to a browser when it connects, so Home shows the live
  // sessions at once instead of after the next poll.
  const latestState = new Map<string, unknown>();
  const unsubscribe = await runtime.bus.subscribe<UiEvent>(UI_EVENTS_CHANNEL, ({ event, payload }) => {
    if (STATE_EVENTS.has(event)) latestState.set(event, payload);
    io.local.emit(event, payload);
  });
  io.on('connection', (socket) => {
    for (const [event, payload] of latestState) socket.emit(event, payload);
  });
  return {
    io,
    close: async () => {
      await unsubscribe();
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => {
        io.close(() => resolve());
      });
      await Promise.all(redisClients.map((client) => client.quit().catch(() => undefined)));
    },
  };
}
