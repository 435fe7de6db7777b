// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepSocketAuthenticated, RENEW_TOKEN_EVENT } from './socket-auth';
import { renewTokenIfDue } from '../api/token-renewal';
import { setStoredToken } from '../store/preferences';

/** An unsigned token with these times: the browser never checks signatures, only reads the times. */
function tokenWith(iat: number, exp: number): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 1, ver: 0, iat, exp })}.signature`;
}

/** Stands in for socket.io's client socket: records what is emitted and connects, lets the test fire events. */
function recordingSocket() {
  const handlers = new Map<string, Set<(...args: unknown[]) => void>>();
  const socket = {
    emitted: [] as unknown[][],
    connects: 0,
    on(event: string, handler: (...args: unknown[]) => void) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
      return socket;
    },
    off(event: string, handler: (...args: unknown[]) => void) {
      handlers.get(event)?.delete(handler);
      return socket;
    },
    emit(...args: unknown[]) {
      socket.emitted.push(args);
      return socket;
    },
    connect() {
      socket.connects += 1;
      return socket;
    },
    fire(event: string, ...args: unknown[]) {
      for (const handler of handlers.get(event) ?? []) handler(...args);
    },
  };
  return socket;
}

describe('socket authentication', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('sends each renewed token on the socket, until cleaned up', async () => {
    const socket = recordingSocket();
    const stop = keepSocketAuthenticated(socket as never);
    const now = Date.now() / 1000;
    setStoredToken(tokenWith(now - 1900, now + 1700));
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ token: 'renewed-1' }), { status: 200 }));
    await renewTokenIfDue();
    expect(socket.emitted).toEqual([[RENEW_TOKEN_EVENT, 'renewed-1']]);

    stop();
    setStoredToken(tokenWith(now - 1900, now + 1700));
    await renewTokenIfDue();
    expect(socket.emitted).toEqual([[RENEW_TOKEN_EVENT, 'renewed-1']]);
  });

  it('reconnects when the server cut the socket, and leaves network losses to socket.io', async () => {
    const socket = recordingSocket();
    const stop = keepSocketAuthenticated(socket as never);
    socket.fire('disconnect', 'transport close');
    socket.fire('disconnect', 'io server disconnect');
    await vi.waitFor(() => expect(socket.connects).toBeGreaterThan(0));
    // Both reconnect paths run through the same promise chain: had the network loss scheduled one, it came first.
    expect(socket.connects).toBe(1);
    stop();
    socket.fire('disconnect', 'io server disconnect');
    await renewTokenIfDue();
    expect(socket.connects).toBe(1);
  });
});
