// Fault suite: the Reelstat process of a single-node install is SIGKILLed while plays run, and started again on
// the same data directory. Plays that go on through the gap keep their true durations; a play that ended while
// Reelstat was dead is recorded once, with no more than was watched and no less than had been seen. None is
// lost or doubled.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { spawnReelstat, type SpawnedReelstat } from '../test-support/spawn-reelstat.js';
import { embeddedPostgres, freshDataDir, setUp, sleep, startPlays } from '../test-support/fault-harness.js';
import { expectRecordedOnce, waitForLivePlays, type Query } from './play-checks.test-helpers.js';

describe('fault: Reelstat is killed during active plays', () => {
  let sim: RunningSimulator;
  const apps: SpawnedReelstat[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 53, clock: 'real' });
  });
  afterAll(async () => {
    writeFileSync('/tmp/reelstat-fault-reelstat-kill.log', apps.map((app) => app.output()).join('\n----\n'));
    for (const app of apps) {
      if (app.child.exitCode === null && app.child.signalCode === null) {
        app.child.kill('SIGTERM');
        await app.exited;
      }
    }
    await sim?.stop();
  });

  it('carries on from the saved live state after a restart, without losing or doubling a play', { timeout: 150_000 }, async () => {
    const dataDir = freshDataDir('reelstat-kill');
    const env = { DATA_DIR: dataDir, UPDATE_CHECK_URL: '', LOG_LEVEL: 'warn' };
    const first = await spawnReelstat(env);
    apps.push(first);
    await first.waitReady();
    await setUp(first, sim);
    // The embedded PostgreSQL is found afresh for each query: the second process starts a new one.
    const query: Query = (sql) => embeddedPostgres(dataDir).query(sql);
    const plays = startPlays(sim, 3);
    await waitForLivePlays(query, 3);
    await sleep(5000);

    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    // What Reelstat had saved of the play that is about to end while nothing watches.
    const truth0 = sim.control.play(plays[0]!.playId)!;
    const [saved] = await query<{ played_seconds: number }>(`SELECT played_seconds FROM live_sessions WHERE item_id = '${truth0.itemId}'`);
    expect(saved).toBeDefined();
    await sleep(2000);
    sim.control.stop(plays[0]!.playId);
    await sleep(2000);

    const second = await spawnReelstat(env);
    apps.push(second);
    await second.waitReady();
    console.info(`fault reelstat-kill (single node): ready again ${Date.now() - killedAt} ms after the kill`);
    await sleep(3000);
    sim.control.stop(plays[1]!.playId);
    sim.control.stop(plays[2]!.playId);

    await expectRecordedOnce(query, sim, [plays[1]!, plays[2]!], [{ play: plays[0]!, seenSeconds: saved!.played_seconds }]);
    const [left] = await query<{ n: number }>('SELECT count(*)::int AS n FROM live_sessions');
    expect(left!.n).toBe(0);
    expect(second.child.exitCode).toBeNull();
  });
});
