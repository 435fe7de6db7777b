import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { RunningSimulator } from '@reelstat/jellyfin-sim';
import { call as kitCall, waitFor } from '@reelstat/core/test-support/test-kit.js';
import { digest } from './api-harness.js';
import type { SpawnedReelstat } from './spawn-reelstat.js';

export const TICKS = 10_000_000;
/** Recorded durations may differ from the truth by one poll (500 ms here) plus one progress report (10 s). */
export const DURATION_TOLERANCE_SECONDS = 10.5;

/** test-kit's call with a token and a body as arguments, as the fault suites call it. */
export async function call(url: string, method: string, route: string, token?: string, body?: unknown) {
  const { status, body: answer } = await kitCall(url, method, route, { token, body });
  return { status, body: answer };
}

/** test-kit's waitFor (a check that throws counts as "not yet"), in the fault suites' argument order. */
export function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  return waitFor(what, check, { timeoutMs, intervalMs: 100 });
}

export function freshDataDir(name: string): string {
  return mkdtempSync(path.join(tmpdir(), `reelstat-${name}-`));
}

/** The embedded cluster's postmaster pid and port (postmaster.pid lines 1 and 4), and a client to it. */
export function embeddedPostgres(dataDir: string) {
  const lines = readFileSync(path.join(dataDir, 'postgres/cluster/postmaster.pid'), 'utf8').split('\n');
  const password = readFileSync(path.join(dataDir, 'postgres/password'), 'utf8').trim();
  const port = Number(lines[3]);
  return {
    pid: Number(lines[0]),
    port,
    async query<Row>(sql: string): Promise<Row[]> {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'reelstat', password, database: 'reelstat' });
      await client.connect();
      try {
        return (await client.query(sql)).rows as Row[];
      } finally {
        await client.end();
      }
    },
  };
}

/** First run through the API: administrator, media server link, fast polling, no resume merging. */
export async function setUp(app: SpawnedReelstat, sim: RunningSimulator): Promise<string> {
  const created = await call(app.url, 'POST', '/auth/createuser', undefined, { username: 'admin', password: digest('secret-1') });
  const token = (created.body as { token: string }).token;
  const linked = await call(app.url, 'POST', '/auth/configSetup', token, { JF_HOST: sim.url, JF_API_KEY: sim.apiKey });
  if (linked.status !== 200) throw new Error(`configSetup answered ${linked.status}`);
  const settings = await call(app.url, 'POST', '/api/setActivityMonitorSettings', token, {
    activeSessionsInterval: 500,
    idleInterval: 1000,
    mergeWindowMinutes: 0,
    minimumPlaySeconds: 5,
  });
  if (settings.status !== 200) throw new Error(`setActivityMonitorSettings answered ${settings.status}`);
  return token;
}

/** Starts `count` plays of different long movies (viewers taken in turn) on the simulator. */
export function startPlays(sim: RunningSimulator, count: number) {
  const users = sim.control.users().filter((u) => !u.isAdministrator && !u.isDisabled);
  const movies = sim.control.itemIds('Movie').filter((id) => (sim.control.item(id)?.runTimeTicks ?? 0) > 30 * 60 * TICKS);
  if (users.length === 0 || movies.length < count) throw new Error('the simulator library is too small for this scenario');
  return Array.from({ length: count }, (_, i) =>
    sim.control.startPlay({ userId: users[i % users.length]!.id, itemId: movies[i]!, client: 'jellyfin-web', method: 'DirectPlay' }),
  );
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
