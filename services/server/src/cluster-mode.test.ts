import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { UI_EVENTS_CHANNEL } from '@reelstat/core';
import {
  createTestDatabase,
  testConfig,
  testLogger,
  testRedisUrl,
  uniqueRedisPrefix,
  type TestDatabase,
} from '@reelstat/core/test-support/test-services.js';
import { waitFor } from '@reelstat/core/test-support/test-kit.js';
import pg from 'pg';
import { leaderGauge, spawnReelstat, type SpawnedReelstat } from './test-support/spawn-reelstat.js';
import { startProcess, type RunningProcess } from './start-process.js';
import { findApiRole } from '@reelstat/api';

describe('cluster mode (external PostgreSQL and Redis)', () => {
  let database: TestDatabase;
  const spawned: SpawnedReelstat[] = [];
  const inProcess: RunningProcess[] = [];
  const sockets: Socket[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    sockets.splice(0).forEach((socket) => socket.disconnect());
    for (const app of spawned.splice(0)) {
      if (app.child.exitCode === null && app.child.signalCode === null) {
        app.child.kill('SIGTERM');
        await app.exited;
      }
    }
    await Promise.all(inProcess.splice(0).map((running) => running.stop()));
  });
  afterAll(async () => {
    await database.drop();
  });

  it('elects exactly one of two scheduler processes and fails over when the leader is killed', async () => {
    const env = {
      DATABASE_URL: database.url,
      ROLES: 'scheduler',
      LEADER_LOCK_RENEW_MS: '300',
      DATA_DIR: '/tmp/reelstat-cluster-test',
      JWT_SECRET: 'x'.repeat(40),
    };
    const a = await spawnReelstat(env);
    spawned.push(a);
    await a.waitReady();
    const b = await spawnReelstat(env);
    spawned.push(b);
    await b.waitReady();
    await waitFor('a to lead', async () => (await leaderGauge(a.port)) === 1);
    // b tries the lock again after a leads (its session's last statement is a finished try), and must not get it.
    await followerTriedAfter(database.url, await databaseNow(database.url));
    expect([await leaderGauge(a.port), await leaderGauge(b.port)]).toEqual([1, 0]);

    a.child.kill('SIGKILL');
    await a.exited;
    await waitFor('b to take over', async () => (await leaderGauge(b.port)) === 1);
    // A process without the api role serves probes and metrics but no API.
    expect((await fetch(`${b.url}/auth/isConfigured`)).status).toBe(404);
    expect((await fetch(`${b.url}/readyz`)).status).toBe(200);
  }, 90_000);

  it('uses BullMQ and Redis, and pushes socket events to browsers on any replica', async () => {
    const prefix = uniqueRedisPrefix();
    const config = (roles: string) =>
      testConfig({ DATABASE_URL: database.url, REDIS_URL: testRedisUrl(), REDIS_KEY_PREFIX: prefix, ROLES: roles, BASE_URL: '/rs' });
    const a = await startProcess(config('api'), testLogger);
    inProcess.push(a);
    const b = await startProcess(config('api,scheduler'), testLogger);
    inProcess.push(b);
    expect(a.runtime.queue.backend).toBe('bullmq');
    expect(b.runtime.bus.backend).toBe('redis');

    const { key } = await a.runtime.services.apiKeys.create('socket test');
    const socket = connectSocket(`http://127.0.0.1:${a.port}`, {
      path: '/rs/socket.io/',
      transports: ['websocket'],
      auth: { apiKey: key },
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const received: Array<[string, unknown]> = [];
    socket.onAny((event: string, payload: unknown) => received.push([event, payload]));

    // A broadcast from replica B reaches the browser connected to replica A (Redis adapter).
    findApiRole(b.roles)!.io!.emit('task-list', [{ name: 'Full Sync', running: false }]);
    // A role without sockets publishes on the bus; every API replica relays to its own browsers once.
    await b.runtime.bus.publish(UI_EVENTS_CHANNEL, { event: 'sessions', payload: [] });
    // Markers sent the same two ways after them: once both arrived, a doubled delivery of the first two would
    // have arrived too (each way delivers in order).
    findApiRole(b.roles)!.io!.emit('marker', 'adapter');
    await b.runtime.bus.publish(UI_EVENTS_CHANNEL, { event: 'marker', payload: 'bus' });
    await waitFor('both markers', () => received.filter(([event]) => event === 'marker').length >= 2);
    expect(received.filter(([event]) => event !== 'marker')).toEqual(
      expect.arrayContaining([
        ['task-list', [{ name: 'Full Sync', running: false }]],
        ['sessions', []],
      ]),
    );
    expect(received).toHaveLength(4);

    // A job enqueued on one replica is worked on another.
    const ran: string[] = [];
    await a.runtime.queue.work<{ from: string }>('probe', async (job) => {
      ran.push(job.data.from);
    });
    await b.runtime.queue.enqueue('probe', { from: 'b' });
    await waitFor('the job to run', () => ran.length === 1);
    expect(ran).toEqual(['b']);
  }, 60_000);
});

async function databaseNow(url: string): Promise<Date> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
  } finally {
    await client.end();
  }
}

/**
 * Waits until a leader-election session that holds no advisory lock has finished a lock attempt started after
 * `since`: the follower tried, and (the lock being held) failed.
 */
async function followerTriedAfter(url: string, since: Date): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await waitFor('the follower to try the lock again', async () => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name LIKE 'reelstat-leader-%' AND state = 'idle' AND query LIKE '%pg_try_advisory_lock%'
            AND query_start > $1 AND pid NOT IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
        [since],
      );
      return rows[0]!.n > 0;
    });
  } finally {
    await client.end();
  }
}
