// Fault suite: the embedded PostgreSQL of a single-node install is SIGKILLed while plays run, and two plays end
// while it is away. Reelstat must stay up, restart PostgreSQL (readiness false meanwhile), and record every
// play exactly once with its true duration.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { scrapeMetric } from '@reelstat/core/test-support/test-kit.js';
import { spawnReelstat, type SpawnedReelstat } from '../test-support/spawn-reelstat.js';
import {
  DURATION_TOLERANCE_SECONDS,
  embeddedPostgres,
  freshDataDir,
  setUp,
  sleep,
  startPlays,
  until,
} from '../test-support/fault-harness.js';

/** Listens on the port (resolves undefined while it is still taken, so `until` retries). */
function holdPort(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    // Connections (the pool retrying) are refused at once, as by a port nobody listens on.
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

interface HistoryRow {
  play_key: string;
  item_id: string;
  played_seconds: number;
  started_at: Date;
}

describe('fault: the embedded PostgreSQL is killed during active plays', () => {
  let sim: RunningSimulator;
  let app: SpawnedReelstat;
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 41, clock: 'real' });
  });
  afterAll(async () => {
    if (app) writeFileSync('/tmp/reelstat-fault-pg-kill.log', app.output());
    if (app && app.child.exitCode === null && app.child.signalCode === null) {
      app.child.kill('SIGTERM');
      await app.exited;
    }
    await sim.stop();
  });

  it('restarts PostgreSQL and records the plays that ended meanwhile once, with their true durations', { timeout: 120_000 }, async () => {
    const dataDir = freshDataDir('pg-kill');
    app = await spawnReelstat({ DATA_DIR: dataDir, UPDATE_CHECK_URL: '', LOG_LEVEL: 'warn' });
    await app.waitReady();
    await setUp(app, sim);
    const plays = startPlays(sim, 3);
    const before = embeddedPostgres(dataDir);
    await until(async () => {
      const [row] = await before.query<{ n: number }>('SELECT count(*)::int AS n FROM live_sessions');
      return row?.n === 3 ? true : undefined;
    }, 'three live plays in the database');
    await sleep(6000);

    process.kill(before.pid, 'SIGKILL');
    const killedAt = Date.now();
    // Hold PostgreSQL's port so the supervisor's restarts fail until we let go: the outage lasts as long as
    // the scenario needs, whatever the machine's speed.
    const blocker = await until(() => holdPort(before.port), 'the port of the killed PostgreSQL', 5000);
    await until(async () => ((await fetch(`${app.url}/readyz`)).status === 503 ? true : undefined), 'readiness to turn false', 10_000);
    await sleep(4000);
    // Two plays end while the database is away.
    sim.control.stop(plays[0]!.playId);
    sim.control.stop(plays[1]!.playId);
    await sleep(2000);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(503);
    await new Promise<void>((resolve) => blocker.close(() => resolve()));

    await until(async () => ((await fetch(`${app.url}/readyz`)).status === 200 ? true : undefined), 'readiness to return', 60_000);
    const recoveredMs = Date.now() - killedAt;
    console.info(`fault postgres-kill (embedded): ready again ${recoveredMs} ms after the kill`);
    expect(app.child.exitCode).toBeNull();
    await sleep(3000);
    sim.control.stop(plays[2]!.playId);

    const after = embeddedPostgres(dataDir);
    expect(after.pid).not.toBe(before.pid);
    expect(after.port).toBe(before.port);
    const rows = await until(async () => {
      const found = await after.query<HistoryRow>('SELECT play_key, item_id, played_seconds, started_at FROM playback_history');
      return found.length >= 3 ? found : undefined;
    }, 'three history rows');
    // A doubled write would come from a later poll: three more polls give it every chance to show up.
    const polls = async () => (await scrapeMetric(app.url, 'reelstat_activity_poll_duration_seconds_count')) ?? 0;
    const pollsAtWrite = await polls();
    await until(async () => ((await polls()) >= pollsAtWrite + 3 ? true : undefined), 'three more polls');
    const all = await after.query<HistoryRow>('SELECT play_key, item_id, played_seconds, started_at FROM playback_history');
    expect(all).toHaveLength(3);
    expect(rows).toHaveLength(3);
    for (const play of plays) {
      const truth = sim.control.play(play.playId)!;
      const row = all.find((r) => r.item_id === truth.itemId);
      expect(row, `the play of ${truth.itemId}`).toBeDefined();
      expect(row!.started_at.getTime()).toBe(truth.startedAtMs);
      expect(Math.abs(row!.played_seconds - truth.secondsUnpaused)).toBeLessThanOrEqual(DURATION_TOLERANCE_SECONDS);
    }
    // The two plays that ended during the outage ran well past their last saved state.
    expect(sim.control.play(plays[0]!.playId)!.secondsUnpaused).toBeGreaterThan(12);
    const metrics = await fetch(`${app.url}/metrics`).then((res) => res.text());
    expect(metrics).toMatch(/^reelstat_embedded_postgres_restarts_total 1$/m);
    const [left] = await after.query<{ n: number }>('SELECT count(*)::int AS n FROM live_sessions');
    expect(left!.n).toBe(0);
  });
});
