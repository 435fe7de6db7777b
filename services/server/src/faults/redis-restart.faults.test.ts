// Fault suite: in cluster mode (external PostgreSQL and Redis) the Redis server is killed while plays run and
// comes back empty (no persistence) on the same address. Plays must be recorded exactly once with their true
// durations, and the queue must work again afterwards (a sync started after the restart runs to the end).
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { createTestDatabase, type TestDatabase } from '@reelstat/core/test-support/test-services.js';
import { spawnReelstat, type SpawnedReelstat } from '../test-support/spawn-reelstat.js';
import { call, freshDataDir, setUp, sleep, startPlays, until } from '../test-support/fault-harness.js';
import { startPrivateRedis } from './private-services.test-helpers.js';
import { expectRecordedOnce, queryUrl, waitForLivePlays } from './play-checks.test-helpers.js';

describe('fault: Redis restarts during active plays (cluster mode)', () => {
  let sim: RunningSimulator;
  let database: TestDatabase;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let app: SpawnedReelstat;
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 47, clock: 'real' });
    database = await createTestDatabase();
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    if (app) writeFileSync('/tmp/reelstat-fault-redis-restart.log', app.output());
    if (app && app.child.exitCode === null && app.child.signalCode === null) {
      app.child.kill('SIGTERM');
      await app.exited;
    }
    await redis?.stop();
    await database?.drop();
    await sim?.stop();
  });

  it('records every play once and runs queued work again once Redis is back', { timeout: 150_000 }, async () => {
    app = await spawnReelstat({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      DATA_DIR: freshDataDir('redis-restart'),
      JWT_SECRET: 'r'.repeat(40),
      UPDATE_CHECK_URL: '',
      LOG_LEVEL: 'warn',
    });
    await app.waitReady();
    const token = await setUp(app, sim);
    const query = queryUrl(database.url);
    const plays = startPlays(sim, 3);
    await waitForLivePlays(query, 3);
    await sleep(4000);

    const killedAt = Date.now();
    await redis.kill();
    await sleep(3000);
    sim.control.stop(plays[0]!.playId);
    await sleep(3000);
    expect(app.child.exitCode).toBeNull();
    await redis.start();
    sim.control.stop(plays[1]!.playId);
    await sleep(3000);
    sim.control.stop(plays[2]!.playId);
    await expectRecordedOnce(query, sim, plays);

    // The queue lives in Redis: a task started now must run on the restarted (empty) server.
    await until(
      async () => {
        const [running] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM task_runs WHERE result = 'Running'`);
        return running?.n === 0 ? true : undefined;
      },
      'the sync started by linking the server to finish',
      60_000,
    );
    const startedAfter = new Date();
    await until(
      async () => ((await call(app.url, 'GET', '/sync/beginPartialSync', token)).status === 200 ? true : undefined),
      'a partial sync to be accepted',
    );
    await until(
      async () => {
        const runs = await query<{ result: string }>(
          `SELECT result FROM task_runs WHERE name = 'PartialSyncTask' AND started_at >= '${startedAfter.toISOString()}'`,
        );
        return runs.some((run) => run.result === 'Success') ? true : undefined;
      },
      'the partial sync started after the restart to succeed',
      90_000,
    );
    console.info(`fault redis-restart (cluster): queue working again ${Date.now() - killedAt} ms after the kill`);
    expect(app.child.exitCode).toBeNull();
  });
});
