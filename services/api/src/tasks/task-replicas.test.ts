import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '@reelstat/jellyfin-sim';
import {
  createTestDatabase,
  testConfig,
  testLogger,
  testRedisUrl,
  uniqueRedisPrefix,
  type TestDatabase,
} from '@reelstat/core/test-support/test-services.js';
import { digest } from '@reelstat/server/test-support/api-harness.js';
import { spawnReelstat, type SpawnedReelstat } from '@reelstat/server/test-support/spawn-reelstat.js';
import { startProcess, type RunningProcess } from '@reelstat/server';
import { waitFor } from '../../test/sync-harness.js';
import { call as kitCall } from '@reelstat/core/test-support/test-kit.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/** A JSON call with a session token, as the dashboard makes it. */
const call = (url: string, method: string, path: string, token?: string, body?: unknown) => kitCall(url, method, path, { token, body });

async function setUp(url: string, sim: Simulator): Promise<string> {
  const created = await call(url, 'POST', '/auth/createuser', undefined, { username: 'admin', password: digest('secret-1') });
  const token = (created.body as { token: string }).token;
  const linked = await call(url, 'POST', '/auth/configSetup', token, { JF_HOST: sim.url, JF_API_KEY: sim.apiKey });
  expect(linked.status).toBe(200);
  // Linking started the first full sync (Automatic); the tests start from its end.
  await waitFor(async () => {
    const logs = (await call(url, 'GET', '/logs/getLogs', token)).body as Array<{ Name: string; Result: string }>;
    return logs.some((l) => l.Name === 'FullSyncTask' && l.Result !== 'Running') ? true : undefined;
  }, 'the full sync started by linking');
  return token;
}

describe('tasks across processes', () => {
  let sim: Simulator;
  let database: TestDatabase;
  const processes: RunningProcess[] = [];
  const spawned: SpawnedReelstat[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 21 });
  });
  afterEach(async () => {
    for (const child of spawned.splice(0)) {
      if (child.child.exitCode === null && child.child.signalCode === null) {
        child.child.kill('SIGTERM');
        await child.exited;
      }
    }
    await Promise.all(processes.splice(0).map((p) => p.stop()));
    await sim.control.clearFaults();
    await database?.drop();
  });
  afterAll(async () => {
    await sim.stop();
  });

  it('two replicas asked to run the same task at once run it once; a stop reaches the replica running it', async () => {
    database = await createTestDatabase();
    const prefix = uniqueRedisPrefix();
    const config = () =>
      testConfig({ DATABASE_URL: database.url, REDIS_URL: testRedisUrl(), REDIS_KEY_PREFIX: prefix, ROLES: 'api,scheduler' });
    const a = await startProcess(config(), testLogger);
    processes.push(a);
    const b = await startProcess(config(), testLogger);
    processes.push(b);
    const token = await setUp(a.url, sim);
    await sim.control.setFaults({ slowPagesMs: 300 });

    const answers = await Promise.all([
      call(a.url, 'GET', '/sync/beginSync', token),
      call(b.url, 'GET', '/sync/beginSync', token),
      call(b.url, 'GET', '/sync/beginSync', token),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const runs = await waitFor(async () => {
      const rows = await a.runtime.db.query<{ id: string; instance_id: string; result: string }>(
        `SELECT id, instance_id, result FROM task_runs WHERE name = 'FullSyncTask' AND execution_type = 'Manual'`,
      );
      return rows.length ? rows : undefined;
    }, 'the run');
    expect(runs).toHaveLength(1);
    // Ask the replica that is not running it.
    const runner = runs[0]!.instance_id === a.runtime.config.instanceId ? a : b;
    const other = runner === a ? b : a;
    expect((await call(other.url, 'GET', '/api/stopTask?task=FullSyncTask', token)).status).toBe(200);
    const ended = await waitFor(async () => {
      const [row] = await a.runtime.db.query<{ result: string }>('SELECT result FROM task_runs WHERE id = $1', [runs[0]!.id]);
      return row!.result === 'Running' ? undefined : row!.result;
    }, 'the stop');
    expect(ended).toBe('Failed');
    const [count] = await a.runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM task_runs WHERE name = 'FullSyncTask' AND execution_type = 'Manual'`,
    );
    expect(count!.n).toBe(1);
  });

  it('a run whose process was killed is marked Failed by the survivors; a run a live process owns is left alone', async () => {
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      ROLES: 'api,scheduler',
      DATA_DIR: '/tmp/reelstat-task-replicas-test',
      JWT_SECRET: 'x'.repeat(40),
      // The survivor must read the media-server key the doomed process sealed.
      ENCRYPTION_KEY: 'k'.repeat(40),
      LOG_LEVEL: 'warn',
    };
    const doomed = await spawnReelstat(env);
    spawned.push(doomed);
    await doomed.waitReady();
    const token = await setUp(doomed.url, sim);
    // The survivor is up before the run starts, and pages are slow, so the run is surely still going when killed.
    const survivor = await startProcess(
      testConfig({ DATABASE_URL: database.url, ROLES: 'api,scheduler', JWT_SECRET: env.JWT_SECRET, ENCRYPTION_KEY: env.ENCRYPTION_KEY }),
      testLogger,
    );
    processes.push(survivor);
    await sim.control.setFaults({ slowPagesMs: 2000 });
    expect((await call(doomed.url, 'GET', '/sync/beginSync', token)).status).toBe(200);

    const db = survivor.runtime.db;
    const [run] = await waitFor(async () => {
      const rows = await db.query<{ id: string }>(`SELECT id FROM task_runs WHERE name = 'FullSyncTask' AND result = 'Running'`);
      return rows.length ? rows : undefined;
    }, 'the run to start');
    // Another process's run that is still beating must survive the clean-up.
    await db.query(
      `INSERT INTO task_runs (id, name, type, execution_type, instance_id, started_at, heartbeat_at)
       VALUES (gen_random_uuid(), 'PlaybackSyncTask', 'IMPORT', 'Manual', 'alive-elsewhere', now(), now() + interval '1 hour')`,
    );
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const failed = await waitFor(
      async () => {
        const [row] = await db.query<{ result: string; message: string }>('SELECT result, message FROM task_runs WHERE id = $1', [run!.id]);
        return row!.result === 'Failed' ? row : undefined;
      },
      'the dead run to be failed',
      40_000,
    );
    expect(failed.message).toBe('The process running this task stopped before it finished');
    const lines = await db.query<{ message: string; color: string }>(
      'SELECT message, color FROM task_run_logs WHERE run_id = $1 ORDER BY id',
      [run!.id],
    );
    expect(lines.at(-1)).toEqual({
      message: expect.stringMatching(/^The process running this task \(.+\) stopped before it finished$/),
      color: 'red',
    });
    const [alive] = await db.query<{ result: string }>(`SELECT result FROM task_runs WHERE instance_id = 'alive-elsewhere'`);
    expect(alive!.result).toBe('Running');
    await db.query(`DELETE FROM task_runs WHERE instance_id = 'alive-elsewhere' RETURNING 1`);

    // The next run completes.
    await sim.control.clearFaults();
    const login = await call(survivor.url, 'POST', '/auth/login', undefined, { username: 'admin', password: digest('secret-1') });
    const survivorToken = (login.body as { token: string }).token;
    expect(await call(survivor.url, 'GET', '/sync/beginSync', survivorToken)).toMatchObject({ status: 200 });
    const result = await waitFor(async () => {
      const [row] = await db.query<{ result: string; message: string | null }>(
        `SELECT result, message FROM task_runs WHERE name = 'FullSyncTask' AND id <> $1 ORDER BY started_at DESC LIMIT 1`,
        [run!.id],
      );
      return row && row.result !== 'Running' ? row : undefined;
    }, 'the next run');
    expect(result).toMatchObject({ result: 'Success' });
  }, 90_000);
});
