// Two real Reelstat processes (api + scheduler) on one database and Redis, the simulator on the real clock:
// the leader's activity monitor pushes live sessions to a browser socket on the other process; the leader is
// killed mid-play, the follower takes over the play from the database, and the play is recorded once, at its
// stop (the default 10-minute merge window is on), with a 'history' event to the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { openDatabase, type Database } from '@reelstat/core';
import {
  createTestDatabase,
  testLogger,
  testRedisUrl,
  uniqueRedisPrefix,
  type TestDatabase,
} from '@reelstat/core/test-support/test-services.js';
import type { HistoryChangedEvent, LiveSession } from '@reelstat/contract';
import { digest } from '@reelstat/server/test-support/api-harness.js';
import { leaderGauge, spawnReelstat, type SpawnedReelstat } from '@reelstat/server/test-support/spawn-reelstat.js';

const TICKS = 10_000_000;

async function call(url: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as unknown };
}

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('activity monitor across two scheduler processes', () => {
  let sim: RunningSimulator;
  let database: TestDatabase;
  let db: Database;
  const spawned: SpawnedReelstat[] = [];
  let socket: Socket | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 31, clock: 'real' });
    database = await createTestDatabase();
    db = openDatabase(database.url, testLogger);
  });
  afterAll(async () => {
    socket?.disconnect();
    for (const child of spawned) {
      if (child.child.exitCode === null && child.child.signalCode === null) {
        child.child.kill('SIGTERM');
        await child.exited;
      }
    }
    await db.close();
    await database.drop();
    await sim.stop();
  });

  it('pushes live sessions from the leader and records a play once when the leader is killed mid-play', { timeout: 120_000 }, async () => {
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: uniqueRedisPrefix(),
      ROLES: 'api,scheduler',
      LEADER_LOCK_RENEW_MS: '300',
      DATA_DIR: '/tmp/reelstat-activity-failover',
      JWT_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: 'k'.repeat(40),
      UPDATE_CHECK_URL: '',
      LOG_LEVEL: 'warn',
    };
    const a = await spawnReelstat(env);
    spawned.push(a);
    await a.waitReady();
    const b = await spawnReelstat(env);
    spawned.push(b);
    await b.waitReady();
    await until(async () => ((await leaderGauge(a.port)) === 1 ? true : undefined), 'a leader');
    expect(await leaderGauge(b.port)).toBe(0);

    const created = await call(a.url, 'POST', '/auth/createuser', undefined, { username: 'admin', password: digest('secret-1') });
    const token = (created.body as { token: string }).token;
    expect((await call(a.url, 'POST', '/auth/configSetup', token, { JF_HOST: sim.url, JF_API_KEY: sim.apiKey })).status).toBe(200);
    const settings = await call(a.url, 'POST', '/api/setActivityMonitorSettings', token, {
      activeSessionsInterval: 500,
      idleInterval: 1000,
      mergeWindowMinutes: 10,
      minimumPlaySeconds: 5,
    });
    expect(settings.status).toBe(200);

    // A browser connected to the follower gets the sessions the leader sees (Redis bus → socket.io).
    const events: LiveSession[][] = [];
    const historyEvents: HistoryChangedEvent[] = [];
    socket = connectSocket(b.url, { path: '/socket.io/', auth: { token }, transports: ['websocket'] });
    socket.on('sessions', (payload: LiveSession[]) => events.push(payload));
    socket.on('history', (payload: HistoryChangedEvent) => historyEvents.push(payload));
    await until(() => (socket!.connected ? true : undefined), 'the socket to connect');

    const userId = sim.control.users().find((u) => !u.isAdministrator && !u.isDisabled)!.id;
    const itemId = sim.control.itemIds('Movie').find((id) => (sim.control.item(id)?.runTimeTicks ?? 0) > 30 * 60 * TICKS)!;
    const play = sim.control.startPlay({ userId, itemId, client: 'jellyfin-web', method: 'Transcode' });
    const live = await until(
      () => events.find((payload) => payload.some((s) => s.NowPlayingItem.Id === itemId)),
      'a sessions event with the play',
    );
    expect(live.find((s) => s.Id === play.sessionId)).toMatchObject({
      UserId: userId,
      PlayState: { IsPaused: false, PlayMethod: 'Transcode' },
      NowPlayingItem: { Id: itemId, Type: 'Movie' },
    });
    await until(async () => {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM live_sessions');
      return row && row.n === 1 ? true : undefined;
    }, 'the live play in the database');

    await new Promise((resolve) => setTimeout(resolve, 11_000));
    a.child.kill('SIGKILL');
    await a.exited;
    await until(async () => ((await leaderGauge(b.port)) === 1 ? true : undefined), 'the follower to lead', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    sim.control.stop(play.playId);
    const truth = sim.control.play(play.playId)!;

    const rows = await until(async () => {
      const found = await db.query<{ item_id: string; played_seconds: number; started_at: Date; play_method: string }>(
        'SELECT item_id, played_seconds, started_at, play_method FROM playback_history',
      );
      return found.length > 0 ? found : undefined;
    }, 'the history row');
    // Give a doubled write every chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const all = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM playback_history');
    expect(all[0]!.n).toBe(1);
    expect(rows[0]).toMatchObject({ item_id: itemId, play_method: 'Transcode' });
    expect(rows[0]!.started_at.getTime()).toBe(truth.startedAtMs);
    // Within one poll interval plus one report interval of the truth.
    expect(Math.abs(rows[0]!.played_seconds - truth.secondsUnpaused)).toBeLessThanOrEqual(10.5);
    expect(truth.secondsUnpaused).toBeGreaterThan(15);
    // Kept as 'ended' for a resume within the window, already in the history.
    const left = await db.query<{ state: string }>('SELECT state FROM live_sessions');
    expect(left).toEqual([{ state: 'ended' }]);
    const change = await until(() => historyEvents.find((e) => e.itemIds.includes(itemId)), 'a history event');
    expect(change).toMatchObject({ userIds: [userId], itemIds: [itemId] });
    expect(JSON.stringify(change)).not.toContain(sim.control.item(itemId)!.name);
    // The browser was told the play ended.
    await until(() => (events.at(-1)?.length === 0 ? true : undefined), 'an empty sessions event');
  });
});
