// A randomized replay of more than 1,000 plays per flavor (pauses, seeks, autoplay, stops, skips, vanishing and
// quiet clients, a media-server restart, a Reelstat restart, jittered polls) with the default 10-minute merge
// window, compared with the simulator's ground truth (resumes merged as Reelstat merges them): nothing lost,
// nothing doubled, played seconds within one poll interval plus one report interval, rollups equal to their
// recomputation. The history is compared before the window of the last plays closes: rows are written at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActivityHarness, TICKS, type ActivityHarness } from './activity-test-harness.js';
import { REPORT_INTERVAL_MS } from '../play-state-machine.js';
import { compareWithTruth } from './replay-accuracy.js';
import { seededRandom } from '../../test-support/seeded-random.js';

const PLAYS = 1000;
const CONCURRENT = 40;
const POLL_MS = 2500;
const JITTER_MS = 1000;
const MINIMUM_PLAY_SECONDS = 30;
const MERGE_WINDOW_MINUTES = 10;

/** Defines the replay suite for one flavor (one test file per flavor, so the two run in parallel). */
export function describeReplay(kind: 'jellyfin' | 'emby', seed: number): void {
  describe(`randomized replay on ${kind}`, () => {
    let h: ActivityHarness;
    beforeAll(async () => {
      h = await startActivityHarness(kind, {
        scale: 'small',
        seed,
        minimumPlaySeconds: MINIMUM_PLAY_SECONDS,
        mergeWindowMinutes: MERGE_WINDOW_MINUTES,
      });
    });
    afterAll(async () => {
      await h.close();
    });

    // 20 minutes: the Jellyfin replay took 8 minutes at load 20 on the shared 2-core machine (the 1,000 plays are
    // about 2,000 polls, each a database transaction); the deadline is not a speed check.
    it(`records ${PLAYS}+ random plays exactly once, each within one poll plus one report interval`, { timeout: 1_200_000 }, async () => {
      const random = seededRandom(seed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const c = h.sim.control;
      const users = c.users().filter((u) => !u.isDisabled && u.enableAllFolders);
      const episodes = c.itemIds('Episode');
      const movies = c.itemIds('Movie');
      const tracks = c.itemIds('Audio');
      const clients =
        kind === 'jellyfin'
          ? ['jellyfin-web', 'jellyfin-android', 'kodi', 'infuse', 'swiftfin', 'android-tv']
          : ['emby-web', 'emby-android', 'emby-ios', 'emby-theater'];
      const methods = ['DirectPlay', 'DirectStream', 'Transcode'] as const;
      let monitor = h.monitor;
      let started = 0;
      let restartedServer = false;
      let restartedReelstat = false;
      let polls = 0;
      const quiet = new Set<string>();

      const startOne = () => {
        const r = random();
        const kindOfItem = r < 0.5 ? 'episode' : r < 0.8 ? 'movie' : 'track';
        const itemId = kindOfItem === 'episode' ? pick(episodes) : kindOfItem === 'movie' ? pick(movies) : pick(tracks);
        const run = c.item(itemId)?.runTimeTicks ?? 0;
        // Most plays start near the end (to end, autoplay or be stopped soon); some from the start or a resume point.
        const startAt = run > 0 && random() < 0.8 ? Math.max(0, run - Math.floor((20 + random() * 240) * TICKS)) : 0;
        c.startPlay({
          userId: pick(users).id,
          itemId,
          client: kindOfItem === 'track' ? (kind === 'jellyfin' ? 'finamp' : 'emby-android') : pick(clients),
          deviceId: `replay-device-${Math.floor(random() * 1e9)}`,
          method: pick(methods),
          startPositionTicks: startAt,
          autoplay: random() < 0.7,
        });
        started++;
      };

      while (c.groundTruth().length < PLAYS) {
        while (c.activePlays().length < CONCURRENT && started < PLAYS * 2) startOne();
        for (const play of c.activePlays()) {
          // A client that went quiet is gone: nobody pauses or seeks it any more (the server auto-stops it).
          if (quiet.has(play.playId)) continue;
          const r = random();
          try {
            if (r < 0.01) c.pause(play.playId);
            else if (r < 0.04) c.resume(play.playId);
            else if (r < 0.05) c.seek(play.playId, Math.floor(random() * (play.runTimeTicks ?? 0)));
            else if (r < 0.056) c.stop(play.playId);
            else if (r < 0.058 && play.itemType === 'Episode') c.nextEpisode(play.playId);
            else if (r < 0.059) c.vanish(play.playId);
            else if (r < 0.0595) {
              c.vanish(play.playId, { keepSession: true });
              quiet.add(play.playId);
            }
          } catch {
            // no next episode, or the play ended in the meantime: nothing to do
          }
        }
        c.advance(POLL_MS - JITTER_MS + Math.floor(random() * 2 * JITTER_MS));
        await monitor.pollOnce();
        polls++;
        if (!restartedServer && c.groundTruth().length > PLAYS / 3) {
          restartedServer = true;
          await c.restartServer();
        }
        if (!restartedReelstat && c.groundTruth().length > (PLAYS * 2) / 3) {
          // Reelstat restarts: 8 s without polls, then a new process with nothing in memory.
          restartedReelstat = true;
          c.advance(8000);
          monitor = h.newMonitor();
        }
      }
      for (const play of c.activePlays()) if (!quiet.has(play.playId)) c.stop(play.playId);
      // Quiet clients are auto-stopped by the server 5 to 10 minutes after their last report.
      for (let i = 0; i < 2 * 12; i++) {
        c.advance(30_000);
        await monitor.pollOnce();
      }

      const toleranceSeconds = (POLL_MS + JITTER_MS + REPORT_INTERVAL_MS) / 1000;
      const history = await h.history();
      const report = compareWithTruth(c.groundTruth(), history, {
        minimumPlaySeconds: MINIMUM_PLAY_SECONDS,
        toleranceSeconds,
        mergeWindowMs: MERGE_WINDOW_MINUTES * 60_000,
      });
      console.log(JSON.stringify({ kind, polls, ...report }));
      expect(report.truthPlays).toBeGreaterThanOrEqual(PLAYS);
      expect(report.expected).toBeGreaterThan(PLAYS / 2);
      expect(report.lost).toBe(0);
      expect(report.duplicated).toBe(0);
      expect(report.unmatched).toBe(0);
      expect(report.withinTolerance).toBe(report.recorded);
      expect(await h.rollupDifferences()).toEqual([]);
      // Once every merge window has closed the live state is empty and the history did not change.
      for (let i = 0; i < 2 * 11; i++) {
        c.advance(30_000);
        await monitor.pollOnce();
      }
      expect(await h.liveCount()).toBe(0);
      expect(await h.history()).toEqual(history);
      expect(await h.rollupDifferences()).toEqual([]);
    });
  });
}
