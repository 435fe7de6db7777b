// Fault suite: the media server goes down (connection refused, then 503), answers slowly, or fails half of its
// requests while plays run. Plays it keeps reporting are recorded once with their true durations; a play that
// ended while the server could not be asked is recorded once, with no more than was watched and no less than
// had been seen. Reelstat notices the server is back and reports when.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { spawnReelstat, type SpawnedReelstat } from '../test-support/spawn-reelstat.js';
import { embeddedPostgres, freshDataDir, setUp, sleep, startPlays, until } from '../test-support/fault-harness.js';
import { expectRecordedOnce, waitForLivePlays, type Query } from './play-checks.test-helpers.js';

describe('fault: the media server is down, slow or flaky during active plays', () => {
  let sim: RunningSimulator;
  let app: SpawnedReelstat;
  let query: Query;
  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 59, clock: 'real' });
    const dataDir = freshDataDir('media-server');
    app = await spawnReelstat({ DATA_DIR: dataDir, UPDATE_CHECK_URL: '', LOG_LEVEL: 'warn' });
    await app.waitReady();
    await setUp(app, sim);
    query = (sql) => embeddedPostgres(dataDir).query(sql);
  }, 120_000);
  afterAll(async () => {
    if (app) {
      writeFileSync('/tmp/reelstat-fault-media-server.log', app.output());
      if (app.child.exitCode === null && app.child.signalCode === null) {
        app.child.kill('SIGTERM');
        await app.exited;
      }
    }
    await sim?.stop();
  });

  /** Reelstat's view of the media server (reelstat_media_server_up), once it says `up`. */
  const serverUpIs = (up: 0 | 1) =>
    until(
      async () => {
        const text = await fetch(`${app.url}/metrics`).then((res) => res.text());
        return new RegExp(`^reelstat_media_server_up\\{[^}]*\\} ${up}$`, 'm').test(text) ? true : undefined;
      },
      `reelstat_media_server_up to be ${up}`,
      30_000,
    );

  const startScenario = async () => {
    await waitForLivePlays(query, 0);
    const plays = startPlays(sim, 3);
    await waitForLivePlays(query, 3);
    await sleep(3000);
    return plays;
  };

  it('down: refused, then 503, for a while', { timeout: 120_000 }, async () => {
    const plays = await startScenario();
    await sim.control.setFaults({ down: 'refused' });
    await serverUpIs(0);
    const truth0 = sim.control.play(plays[0]!.playId)!;
    const [seen] = await query<{ played_seconds: number }>(`SELECT played_seconds FROM live_sessions WHERE item_id = '${truth0.itemId}'`);
    await sleep(3000);
    sim.control.stop(plays[0]!.playId);
    await sleep(2000);
    await sim.control.setFaults({ down: '503' });
    await sleep(3000);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    const clearedAt = Date.now();
    await sim.control.clearFaults();
    await serverUpIs(1);
    console.info(`fault media-server down: monitoring again ${Date.now() - clearedAt} ms after the server came back`);
    await sleep(2000);
    sim.control.stop(plays[1]!.playId);
    sim.control.stop(plays[2]!.playId);
    await expectRecordedOnce(query, sim, [plays[1]!, plays[2]!], [{ play: plays[0]!, seenSeconds: seen!.played_seconds }]);
  });

  /**
   * Three plays under a fault: the first ends after `firstMs` of it, the second `secondMs` later, the third after
   * the fault is cleared; each must be recorded once with its true times. The pauses are the plays' lengths on the
   * simulator's real clock, not waits for Reelstat (expectRecordedOnce polls for the rows).
   */
  async function endPlaysThroughFault(fault: Parameters<typeof sim.control.setFaults>[0], firstMs: number, secondMs: number) {
    const plays = await startScenario();
    await sim.control.setFaults(fault);
    await sleep(firstMs);
    sim.control.stop(plays[0]!.playId);
    await sleep(secondMs);
    sim.control.stop(plays[1]!.playId);
    await sleep(3000);
    await sim.control.clearFaults();
    await sleep(2000);
    sim.control.stop(plays[2]!.playId);
    await expectRecordedOnce(query, sim, plays);
  }

  it('slow: every answer 2.5 s late', { timeout: 120_000 }, async () => {
    await endPlaysThroughFault({ latencyMs: 2500 }, 4000, 6000);
  });

  it('flaky: half of the requests answered 500', { timeout: 120_000 }, async () => {
    await endPlaysThroughFault({ errorRate: 0.5 }, 3000, 4000);
    const metrics = await fetch(`${app.url}/metrics`).then((res) => res.text());
    // The faults really reached the monitor (otherwise this scenario proves nothing).
    expect(metrics).toMatch(/^reelstat_activity_poll_errors_total\{[^}]*kind="(server|http)[^"]*"[^}]*\} [1-9]/m);
  });
});
