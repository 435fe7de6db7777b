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
import { call, scrapeMetric, waitFor } from '@reelstat/core/test-support/test-kit.js';
import { digest } from '@reelstat/server/test-support/api-harness.js';
import { leaderGauge, spawnReelstat, type SpawnedReelstat } from '@reelstat/server/test-support/spawn-reelstat.js';

const TICKS = 10_000_000;

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
    await waitFor('a leader', async () => (await leaderGauge(a.port)) === 1);
    expect(await leaderGauge(b.port)).toBe(0);

    const created = await call(a.url, 'POST', '/auth/createuser', { body: { username: 'admin', password: digest('secret-1') } });
    const token = (created.body as { token: string }).token;
    expect((await call(a.url, 'POST', '/auth/configSetup', { token, body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } })).status).toBe(
      200,
    );
    const settings = await call(a.url, 'POST', '/api/setActivityMonitorSettings', {
      token,
      body: { activeSessionsInterval: 500, idleInterval: 1000, mergeWindowMinutes: 10, minimumPlaySeconds: 5 },
    });
    expect(settings.status).toBe(200);

    // A browser connected to the follower gets the sessions the leader sees (Redis bus → socket.io).
    const events: LiveSession[][] = [];
    const historyEvents: HistoryChangedEvent[] = [];
    socket = connectSocket(b.url, { path: '/socket.io/', auth: { token }, transports: ['websocket'] });
    socket.on('sessions', (payload: LiveSession[]) => events.push(payload));
    socket.on('history', (payload: HistoryChangedEvent) => historyEvents.push(payload));
    await waitFor('the socket to connect', () => socket!.connected);

    const userId = sim.control.users().find((u) => !u.isAdministrator && !u.isDisabled)!.id;
    const itemId = sim.control.itemIds('Movie').find((id) => (sim.control.item(id)?.runTimeTicks ?? 0) > 30 * 60 * TICKS)!;
    const play = sim.control.startPlay({ userId, itemId, client: 'jellyfin-web', method: 'Transcode' });
    const live = await waitFor('a sessions event with the play', () =>
      events.find((payload) => payload.some((s) => s.NowPlayingItem.Id === itemId)),
    );
    expect(live.find((s) => s.Id === play.sessionId)).toMatchObject({
      UserId: userId,
      PlayState: { IsPaused: false, PlayMethod: 'Transcode' },
      NowPlayingItem: { Id: itemId, Type: 'Movie' },
    });
    await waitFor('the live play in the database', async () => {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM live_sessions');
      return row?.n === 1;
    });

    // The play runs past one progress report (10 s) before the leader dies, and on under the follower.
    await waitFor('11 s of play', () => sim.control.play(play.playId)!.secondsUnpaused >= 11, { timeoutMs: 60_000, intervalMs: 250 });
    a.child.kill('SIGKILL');
    await a.exited;
    await waitFor('the follower to lead', async () => (await leaderGauge(b.port)) === 1);
    const polls = () => scrapeMetric(`http://127.0.0.1:${b.port}`, 'reelstat_activity_poll_duration_seconds_count');
    const pollsAtTakeover = (await polls()) ?? 0;
    await waitFor('the follower to poll the play', async () => ((await polls()) ?? 0) >= pollsAtTakeover + 3);
    await waitFor('17 s of play', () => sim.control.play(play.playId)!.secondsUnpaused >= 17, { timeoutMs: 60_000, intervalMs: 250 });
    sim.control.stop(play.playId);
    const truth = sim.control.play(play.playId)!;

    const rows = await waitFor('the history row', async () => {
      const found = await db.query<{ item_id: string; played_seconds: number; started_at: Date; play_method: string }>(
        'SELECT item_id, played_seconds, started_at, play_method FROM playback_history',
      );
      return found.length > 0 && found;
    });
    // A doubled write would come from a later poll: three more polls give it every chance to show up.
    const pollsAtWrite = (await polls()) ?? 0;
    await waitFor('three more polls', async () => ((await polls()) ?? 0) >= pollsAtWrite + 3);
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
    const change = await waitFor('a history event', () => historyEvents.find((e) => e.itemIds.includes(itemId)));
    expect(change).toMatchObject({ userIds: [userId], itemIds: [itemId] });
    expect(JSON.stringify(change)).not.toContain(sim.control.item(itemId)!.name);
    // The browser was told the play ended.
    await waitFor('an empty sessions event', () => events.at(-1)?.length === 0);
  });
});
