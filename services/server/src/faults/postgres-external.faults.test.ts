// Fault suite: the external PostgreSQL (DATABASE_URL) of an install is shut down while plays run, stays away
// while two plays end, and comes back on the same address. Reelstat must stay up, say it is not ready
// meanwhile, and record every play exactly once with its true duration.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { spawnReelstat, type SpawnedReelstat } from '../test-support/spawn-reelstat.js';
import { DURATION_TOLERANCE_SECONDS, freshDataDir, setUp, sleep, startPlays, until } from '../test-support/fault-harness.js';
import { holdPort, releasePort, startPrivatePostgres } from './private-services.test-helpers.js';
import { expectRecordedOnce, queryUrl, waitForLivePlays } from './play-checks.test-helpers.js';

describe('fault: the external PostgreSQL restarts during active plays', () => {
  let sim: RunningSimulator;
  let postgres: Awaited<ReturnType<typeof startPrivatePostgres>>;
  let app: SpawnedReelstat;
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 43, clock: 'real' });
    postgres = await startPrivatePostgres();
  });
  afterAll(async () => {
    if (app) writeFileSync('/tmp/reelstat-fault-pg-external.log', app.output());
    if (app && app.child.exitCode === null && app.child.signalCode === null) {
      app.child.kill('SIGTERM');
      await app.exited;
    }
    await postgres?.stop();
    await sim?.stop();
  });

  it(
    'waits for the database and records the plays that ended meanwhile once, with their true durations',
    { timeout: 180_000 },
    async () => {
      app = await spawnReelstat({
        DATABASE_URL: postgres.url,
        DATA_DIR: freshDataDir('pg-external'),
        JWT_SECRET: 'f'.repeat(40),
        UPDATE_CHECK_URL: '',
        LOG_LEVEL: 'warn',
      });
      await app.waitReady();
      await setUp(app, sim);
      const query = queryUrl(postgres.url);
      const plays = startPlays(sim, 3);
      await waitForLivePlays(query, 3);
      await sleep(4000);
      const saved = await query<{ item_id: string; played_seconds: number }>('SELECT item_id, played_seconds FROM live_sessions');

      // A fast shutdown, as `systemctl restart postgresql` or a managed database's maintenance does; the port is
      // held until the scenario lets go, so the outage lasts as long as it needs whatever the machine's speed.
      const stoppedAt = Date.now();
      process.kill(postgres.pid, 'SIGINT');
      const blocker = await until(() => holdPort(postgres.port), 'the port of the stopped PostgreSQL', 15_000);
      await until(async () => ((await fetch(`${app.url}/readyz`)).status === 503 ? true : undefined), 'readiness to turn false', 15_000);
      // Long enough that a recording from the last saved state (plus the one report interval the monitor credits
      // a play that vanished) would miss the true duration by more than the tolerance.
      await sleep(22_000);
      sim.control.stop(plays[0]!.playId);
      sim.control.stop(plays[1]!.playId);
      await sleep(3000);
      expect((await fetch(`${app.url}/readyz`)).status).toBe(503);
      await releasePort(blocker);

      await until(async () => ((await fetch(`${app.url}/readyz`)).status === 200 ? true : undefined), 'readiness to return', 60_000);
      console.info(`fault postgres-restart (external): ready again ${Date.now() - stoppedAt} ms after the shutdown`);
      expect(app.child.exitCode).toBeNull();
      await sleep(3000);
      sim.control.stop(plays[2]!.playId);

      await expectRecordedOnce(query, sim, plays);
      // The two plays that ended during the outage ran well past their last saved state, so a recording from
      // that state would fail the duration check above (10 s: the report interval credited to a vanished play).
      for (const play of plays.slice(0, 2)) {
        const truth = sim.control.play(play.playId)!;
        const before = saved.find((row) => row.item_id === truth.itemId)!.played_seconds;
        expect(truth.secondsUnpaused - before).toBeGreaterThan(10 + DURATION_TOLERANCE_SECONDS + 1);
      }
      const [left] = await query<{ n: number }>('SELECT count(*)::int AS n FROM live_sessions');
      expect(left!.n).toBe(0);
    },
  );
});
