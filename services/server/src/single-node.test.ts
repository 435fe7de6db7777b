import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnReelstat, type SpawnedReelstat } from './test-support/spawn-reelstat.js';

/** Alive and not a zombie (an orphan's zombie lingers where PID 1 does not reap). */
function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const started: SpawnedReelstat[] = [];
async function start(env: Record<string, string>) {
  const app = await spawnReelstat(env);
  started.push(app);
  return app;
}
afterEach(async () => {
  for (const app of started.splice(0)) {
    if (app.child.exitCode === null && app.child.signalCode === null) {
      app.child.kill('SIGTERM');
      await app.exited;
    }
  }
});

/** Reads the embedded cluster's pid and port from postmaster.pid (lines 1 and 4). */
function postmaster(dataDir: string) {
  const lines = readFileSync(path.join(dataDir, 'postgres/cluster/postmaster.pid'), 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

describe('single-node runtime (embedded PostgreSQL, no Redis)', () => {
  it('starts, answers probes, stops cleanly on SIGTERM and SIGINT, and keeps its data across restarts', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'reelstat-single-'));
    const env = { DATA_DIR: dataDir };

    const first = await start(env);
    await first.waitReady();
    expect(await fetch(`${first.url}/healthz`).then((res) => res.json())).toEqual({ status: 'ok' });
    expect(await fetch(`${first.url}/auth/isConfigured`).then((res) => res.json())).toEqual({ state: 0, version: expect.any(String) });
    const metrics = await fetch(`${first.url}/metrics`).then((res) => res.text());
    expect(metrics).toMatch(/^reelstat_leader\{group="scheduler"\} 1$/m);
    expect(metrics).toMatch(/reelstat_http_request_duration_seconds_count\{method="GET",route="\/auth\/isConfigured",status="200"\} 1/);

    // Write something through PostgreSQL directly, as the application would.
    const { pid, port } = postmaster(dataDir);
    const password = readFileSync(path.join(dataDir, 'postgres/password'), 'utf8').trim();
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'reelstat', password, database: 'reelstat' });
    await client.connect();
    await client.query(`INSERT INTO app_settings (key, value) VALUES ('probe', '"kept"')`);
    await client.end();

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'postgres/cluster/postmaster.pid'))).toBe(false);
    expect(first.output()).toContain('embedded PostgreSQL stopped');

    const second = await start(env);
    await second.waitReady();
    const again = postmaster(dataDir);
    const reader = new pg.Client({ host: '127.0.0.1', port: again.port, user: 'reelstat', password, database: 'reelstat' });
    await reader.connect();
    const rows = await reader.query(`SELECT value FROM app_settings WHERE key = 'probe'`);
    await reader.end();
    expect(rows.rows).toEqual([{ value: 'kept' }]);
    // No second initialisation, no migration re-run.
    expect(second.output()).not.toContain('initialising embedded PostgreSQL cluster');
    expect(second.output()).not.toContain('database migrated');

    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(isAlive(again.pid)).toBe(false);
  }, 120_000);

  it('recovers from a PostgreSQL left running by a killed process', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'reelstat-orphan-'));
    const first = await start({ DATA_DIR: dataDir });
    await first.waitReady();
    const { pid } = postmaster(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await start({ DATA_DIR: dataDir });
    await second.waitReady();
    expect(isAlive(pid)).toBe(false);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('serves everything under BASE_URL, probes also at the root', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'reelstat-base-'));
    const app = await start({ DATA_DIR: dataDir, BASE_URL: '/reelstat' });
    await app.waitReady();
    expect((await fetch(`${app.url}/auth/isConfigured`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${app.port}/auth/isConfigured`)).status).toBe(404);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const notFound = await fetch(`${app.url}/api/nothing-here`);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({
      status: 404,
      code: 'not_found',
      message: 'No route for GET /reelstat/api/nothing-here',
      error: 'No route for GET /reelstat/api/nothing-here',
      errorMessage: 'No route for GET /reelstat/api/nothing-here',
    });
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  }, 120_000);
});
