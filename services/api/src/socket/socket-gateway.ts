import type { Server as HttpServer } from 'node:http';
import { Server as SocketServer, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { UI_EVENTS_CHANNEL, verifyToken, type MediaUserRef, type Runtime, type UiEvent } from '@reelstat/core';
import { credentialsOf, resolvePrincipal } from '../auth/authenticate.js';
import { ExpiryTimer } from './expiry-timer.js';
import { eventForViewer } from './viewer-events.js';

/** Client → server: `renew-token` with a renewed login token moves the socket's cut-off to its expiry. */
export const RENEW_TOKEN_EVENT = 'renew-token';

/** The room of administrators' sockets, which receive every event as published. */
const ADMINS_ROOM = 'admins';

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
  // the handshake's auth.token (login token) or auth.apiKey, or the usual headers. Administrators receive every
  // event; a viewer's socket receives only what eventForViewer lets through (their own sessions and history).
  io.use((socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as { token?: unknown; apiKey?: unknown };
    const headers: Record<string, string | string[] | undefined> = { ...socket.handshake.headers };
    if (typeof auth.token === 'string') headers.authorization = `Bearer ${auth.token}`;
    if (typeof auth.apiKey === 'string') headers['x-api-token'] = auth.apiKey;
    resolvePrincipal(runtime, headers).then(
      (principal) => {
        if (!principal) return next(new Error('unauthorized'));
        socket.data.viewer = principal.role === 'admin' ? undefined : { mediaUser: principal.mediaUser };
        // A socket that a login token let in lives as long as that token (or the renewed one it sends).
        if (principal.kind !== 'api-key') socket.data.expiresAtMs = tokenExpiry(runtime, credentialsOf(headers).token);
        next();
      },
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
  // A viewer's events are filtered per socket (each sees a different part), so they are not in a room.
  const viewerSockets = new Map<Socket, MediaUserRef | undefined>();
  const unsubscribe = await runtime.bus.subscribe<UiEvent>(UI_EVENTS_CHANNEL, ({ event, payload }) => {
    if (STATE_EVENTS.has(event)) latestState.set(event, payload);
    io.local.to(ADMINS_ROOM).emit(event, payload);
    for (const [socket, mediaUser] of viewerSockets) {
      const own = eventForViewer(event, payload, mediaUser);
      if (own !== undefined) socket.emit(event, own);
    }
  });
  io.on('connection', (socket) => {
    const viewer = socket.data.viewer as { mediaUser: MediaUserRef | undefined } | undefined;
    if (viewer) {
      viewerSockets.set(socket, viewer.mediaUser);
      socket.on('disconnect', () => viewerSockets.delete(socket));
    } else void socket.join(ADMINS_ROOM);
    const expiresAtMs = socket.data.expiresAtMs as number | undefined;
    if (expiresAtMs !== undefined) {
      const expiry = new ExpiryTimer(() => socket.disconnect(true));
      expiry.at(expiresAtMs);
      socket.on('disconnect', () => expiry.clear());
      socket.on(RENEW_TOKEN_EVENT, (token: unknown, ack?: unknown) => {
        const answer = (body: { ok: boolean; expiresAt?: string }) => (typeof ack === 'function' ? ack(body) : undefined);
        if (typeof token !== 'string') return answer({ ok: false });
        // The same check as any call (signature, expiry, revocation by a password change), then the new cut-off.
        runtime.services.auth.authenticateToken(token).then(
          (principal) => {
            const renewedExpiry = principal ? tokenExpiry(runtime, token) : undefined;
            if (renewedExpiry === undefined) return answer({ ok: false });
            expiry.at(renewedExpiry);
            answer({ ok: true, expiresAt: new Date(renewedExpiry).toISOString() });
          },
          () => answer({ ok: false }),
        );
      });
    }
    for (const [event, payload] of latestState) {
      const sent = viewer ? eventForViewer(event, payload, viewer.mediaUser) : payload;
      if (sent !== undefined) socket.emit(event, sent);
    }
  });
  return {
    io,
    close: async () => {
      await unsubscribe();
      // Closing the server closes each browser's transport: the client sees "transport close" and reconnects
      // (through the load balancer, to another replica). Not io.disconnectSockets(): with the Redis adapter that
      // disconnects the browsers of every replica, and a server-side disconnect is one the client never retries.
      await new Promise<void>((resolve) => {
        io.close(() => resolve());
      });
      await Promise.all(redisClients.map((client) => client.quit().catch(() => undefined)));
    },
  };
}

/** When a valid login token expires (ms), or undefined for anything that is not one. */
function tokenExpiry(runtime: Runtime, token: string | undefined): number | undefined {
  const claims = token ? verifyToken(token, runtime.config.jwtSecret) : undefined;
  return claims ? claims.exp * 1000 : undefined;
}
