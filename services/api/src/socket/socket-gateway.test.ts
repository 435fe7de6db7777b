import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { randomUUID } from 'node:crypto';
import { publishUiEvent, recordPlays, signToken, verifyToken } from '@reelstat/core';
import { waitUntil } from '@reelstat/core/test-support/test-services.js';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';

describe('socket gateway', () => {
  let harness: ApiHarness;
  let token: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    harness = await startApiHarness();
    token = await createAdmin(harness);
  });
  afterAll(async () => {
    sockets.forEach((socket) => socket.disconnect());
    await harness.stop();
  });

  async function connect(received: Array<[string, unknown]>, withToken = token) {
    const socket = connectSocket(`http://127.0.0.1:${harness.app.port}`, {
      path: '/socket.io/',
      transports: ['websocket'],
      auth: { token: withToken },
      reconnection: false,
    });
    sockets.push(socket);
    socket.onAny((event: string, payload: unknown) => received.push([event, payload]));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  /** A login token of the administrator that expires in `seconds` (rounded down to whole seconds, as JWTs are). */
  function tokenExpiringIn(seconds: number): { token: string; expiresAtMs: number } {
    const secret = harness.app.runtime.config.jwtSecret;
    const claims = verifyToken(token, secret)!;
    const short = signToken({ sub: claims.sub, ver: claims.ver, auth_time: claims.auth_time ?? claims.iat }, secret, seconds);
    return { token: short, expiresAtMs: verifyToken(short, secret)!.exp * 1000 };
  }

  function disconnections(socket: Socket): Array<{ reason: string; atMs: number }> {
    const seen: Array<{ reason: string; atMs: number }> = [];
    socket.on('disconnect', (reason) => seen.push({ reason, atMs: Date.now() }));
    return seen;
  }

  it('cuts a socket when the login token it connected with expires, not before', async () => {
    const short = tokenExpiringIn(4);
    const socket = await connect([], short.token);
    const cut = disconnections(socket);
    await waitUntil(() => cut.length > 0, 15_000);
    expect(cut).toEqual([{ reason: 'io server disconnect', atMs: expect.any(Number) }]);
    expect(cut[0]!.atMs).toBeGreaterThanOrEqual(short.expiresAtMs);
  });

  it('moves the cut-off to the expiry of a renewed token the socket sends, and refuses anything else', async () => {
    const short = tokenExpiringIn(4);
    const received: Array<[string, unknown]> = [];
    const renewed = await connect(received, short.token);
    const renewedCuts = disconnections(renewed);
    const longer = tokenExpiringIn(3600);
    expect(await renewed.emitWithAck('renew-token', longer.token)).toEqual({
      ok: true,
      expiresAt: new Date(longer.expiresAtMs).toISOString(),
    });
    expect(await renewed.emitWithAck('renew-token', 'not-a-token')).toEqual({ ok: false });
    expect(await renewed.emitWithAck('renew-token', 42)).toEqual({ ok: false });

    // A socket with the same short token that did not renew is cut at the old expiry; the renewed one, whose
    // timer was set first, would have been cut by then: it still receives events.
    const other = await connect([], short.token);
    const otherCuts = disconnections(other);
    await waitUntil(() => otherCuts.length > 0, 15_000);
    await publishUiEvent(harness.app.runtime.bus, 'after-expiry', null);
    await waitUntil(() => received.some(([event]) => event === 'after-expiry'));
    expect(renewedCuts).toEqual([]);
    expect(renewed.connected).toBe(true);
  });

  it('relays bus events to browsers and replays the current sessions to a browser that connects later', async () => {
    const early: Array<[string, unknown]> = [];
    await connect(early);
    const sessions = [{ Id: 'a1', UserName: 'Alice', NowPlayingItem: { Id: 'm1', Name: 'Heat' } }];
    await publishUiEvent(harness.app.runtime.bus, 'sessions', sessions);
    await publishUiEvent(harness.app.runtime.bus, 'FullSyncTask', { type: 'Start', message: 'Full sync started' });
    await waitUntil(() => early.length === 2);
    expect(early).toEqual([
      ['sessions', sessions],
      ['FullSyncTask', { type: 'Start', message: 'Full sync started' }],
    ]);

    const late: Array<[string, unknown]> = [];
    await connect(late);
    await waitUntil(() => late.length === 1);
    // The replay is sent on connection, before anything relayed later: once a marker relayed now arrived,
    // a wrongly replayed notification would have arrived before it.
    await publishUiEvent(harness.app.runtime.bus, 'marker', null);
    await waitUntil(() => late.some(([event]) => event === 'marker'));
    // State is replayed; one-off notifications are not.
    expect(late).toEqual([
      ['sessions', sessions],
      ['marker', null],
    ]);
  });

  it('tells browsers once per deletion which users, libraries and items lost plays, without titles', async () => {
    const serverId = randomUUID();
    const db = harness.app.runtime.db;
    await db.query(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, is_default) VALUES ($1, 'jf', 'jellyfin', 'http://x', 'x', true)`,
      [serverId],
    );
    const play = (key: string, userId: string) => ({
      serverId,
      playKey: key,
      source: 'monitor' as const,
      userId,
      userName: 'Alice',
      itemId: 'e1',
      itemName: 'Secret Title',
      seriesId: 's1',
      seasonId: 's1-1',
      libraryId: 'shows',
      playMethod: 'DirectPlay' as const,
      startedAt: new Date('2026-03-01T20:00:00Z'),
      playedSeconds: 100,
    });
    await recordPlays(db, [play('a', 'u1'), play('b', 'u2')]);
    const ids = await db.query<{ id: number }>('SELECT id FROM playback_history WHERE server_id = $1', [serverId]);
    const received: Array<[string, unknown]> = [];
    await connect(received);
    const answer = await harness.call('POST', '/api/deletePlaybackActivity', { body: { ids: ids.map((r) => Number(r.id)) }, token });
    expect(answer.status).toBe(200);
    await waitUntil(() => received.some(([event]) => event === 'history'));
    const history = received.filter(([event]) => event === 'history');
    expect(history).toEqual([['history', { serverId, userIds: ['u1', 'u2'], libraryIds: ['shows'], itemIds: ['e1', 's1', 's1-1'] }]]);
    expect(JSON.stringify(history)).not.toContain('Secret Title');
  });
});
