// Write at the end, extend on resume (issue 12), with the default recording rules (30 s minimum, 10-minute
// merge window) on the simulator's virtual clock: a play is in the history one poll after it stops, a resume
// within the window extends that same row, and the statistics always equal their recomputation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deletePlaybackActivity, purgeItem } from '../library/purge.js';
import { movieLongerThan, startActivityHarness, viewer, type ActivityHarness } from './test-support/activity-test-harness.js';

const WINDOW_MS = 10 * 60_000;

describe.each(['jellyfin', 'emby'] as const)('write at the end on %s', (kind) => {
  let h: ActivityHarness;
  let userId: string;
  let itemId: string;
  beforeEach(async () => {
    h = await startActivityHarness(kind);
    userId = viewer(h.sim);
    itemId = movieLongerThan(h.sim, 30);
  });
  afterEach(async () => {
    try {
      expect(await h.rollupDifferences()).toEqual([]);
    } finally {
      await h.close();
    }
  });

  /** Plays `seconds` of the movie from where the previous part stopped, stops, and polls once more. */
  const watch = async (seconds: number, from?: string, monitor = h.monitor) => {
    const startPositionTicks = from ? h.sim.control.play(from)!.endPositionTicks : 0;
    const play = h.sim.control.startPlay({ userId, itemId, startPositionTicks });
    await h.run(seconds * 1000, 1000, monitor);
    h.sim.control.stop(play.playId);
    await h.run(1000, 1000, monitor);
    return play;
  };
  const summary = async () => (await h.history()).map((r) => [r.played_seconds, r.started_at.getTime(), r.ended_at?.getTime()]);
  const userTotals = () =>
    h.db.query<{ plays: number; played_seconds: number }>(
      `SELECT plays, played_seconds::int AS played_seconds FROM play_totals WHERE server_id = $1 AND scope = 'user' AND key = $2`,
      [h.serverId, userId],
    );

  it('a stopped play is in the history one poll later; a resume within the window extends that row', async () => {
    const first = await watch(40);
    expect(await summary()).toEqual([[40, first.startedAtMs, h.sim.control.play(first.playId)!.endedAtMs]]);
    expect(await userTotals()).toEqual([{ plays: 1, played_seconds: 40 }]);
    expect(await h.rollupDifferences()).toEqual([]);

    await h.run(60_000, 5000);
    const second = await watch(30, first.playId);
    const rows = await h.history();
    expect(rows.map((r) => [r.played_seconds, r.started_at.getTime(), r.ended_at?.getTime()])).toEqual([
      [70, first.startedAtMs, h.sim.control.play(second.playId)!.endedAtMs],
    ]);
    expect(Number(rows[0]!.end_position_ticks)).toBe(h.sim.control.play(second.playId)!.endPositionTicks);
    expect(await userTotals()).toEqual([{ plays: 1, played_seconds: 70 }]);
    await expect(h.registry.metrics()).resolves.toMatch(
      /^reelstat_activity_watch_seconds_total\{server="sim",play_method="[A-Za-z]+"\} 70$/m,
    );

    // The window closes: the live state forgets the play, the row stays as it is.
    await h.run(WINDOW_MS + 60_000, 30_000);
    expect(await h.liveCount()).toBe(0);
    expect(await h.history()).toEqual(rows);
  });

  it('a resume after the window is a new play', async () => {
    const first = await watch(40);
    await h.run(WINDOW_MS + 30_000, 30_000);
    const second = await watch(50, first.playId);
    expect(await summary()).toEqual([
      [40, first.startedAtMs, h.sim.control.play(first.playId)!.endedAtMs],
      [50, second.startedAtMs, h.sim.control.play(second.playId)!.endedAtMs],
    ]);
    expect(await userTotals()).toEqual([{ plays: 2, played_seconds: 90 }]);
  });

  it('the minimum length is judged on the merged play: 20 s + 20 s is one 40 s row, written once', async () => {
    const first = await watch(20);
    expect(await h.history()).toEqual([]);
    await h.run(120_000, 5000);
    await watch(20, first.playId);
    expect((await summary()).map(([seconds, startedAt]) => [seconds, startedAt])).toEqual([[40, first.startedAtMs]]);
    await h.run(WINDOW_MS + 60_000, 30_000);
    expect((await h.history()).map((r) => r.played_seconds)).toEqual([40]);
    expect(await userTotals()).toEqual([{ plays: 1, played_seconds: 40 }]);
  });

  it('an extended row deleted from the activity table stays deleted, and a later resume does not bring it back', async () => {
    const first = await watch(40);
    const second = await watch(30, first.playId);
    const [row] = await h.db.query<{ id: number }>('SELECT id FROM playback_history WHERE server_id = $1', [h.serverId]);
    expect(await deletePlaybackActivity(h.db, h.serverId, [Number(row!.id)])).toBe(1);
    expect(await h.rollupDifferences()).toEqual([]);
    await watch(30, second.playId);
    expect(await h.history()).toEqual([]);
    expect(await userTotals()).toEqual([{ plays: 0, played_seconds: 0 }]);
  });

  it('purging the item of an extended row with its activity keeps the statistics exact', async () => {
    const first = await watch(40);
    await watch(35, first.playId);
    expect((await h.history()).map((r) => r.played_seconds)).toEqual([75]);
    const purged = await purgeItem(h.db, h.serverId, itemId, true);
    expect(purged.plays).toBe(1);
    expect(await h.history()).toEqual([]);
  });

  it('a Reelstat restart between the stop and the resume still extends the one row', async () => {
    const first = await watch(40);
    h.sim.control.advance(20_000);
    const restarted = h.newMonitor();
    const second = await watch(30, first.playId, restarted);
    expect(await summary()).toEqual([[70, first.startedAtMs, h.sim.control.play(second.playId)!.endedAtMs]]);
    expect(await userTotals()).toEqual([{ plays: 1, played_seconds: 70 }]);
  });

  it('a leader failover between the stop and the resume: the old leader finishing a stale poll changes nothing', async () => {
    const oldLeader = h.monitor;
    const newLeader = h.newMonitor();
    const play = h.sim.control.startPlay({ userId, itemId });
    await h.run(40_000, 1000, oldLeader);
    await newLeader.pollOnce();
    h.sim.control.stop(play.playId);
    // The new leader sees the stop and writes the row; the old one hangs (a long pause) before its next poll.
    await h.run(1000, 1000, newLeader);
    const second = await watch(30, play.playId, newLeader);
    const expected = [[70, play.startedAtMs, h.sim.control.play(second.playId)!.endedAtMs]];
    expect(await summary()).toEqual(expected);
    // The old leader wakes up with the play still 'playing' in its memory and ends it with its own, older view.
    await oldLeader.pollOnce();
    expect(await summary()).toEqual(expected);
    expect(await userTotals()).toEqual([{ plays: 1, played_seconds: 70 }]);
  });
});
