// A monitor on standby (its process lost leadership with the database connection) keeps observing without
// writing; taken over again, it writes what it saw. If another leader wrote the live state in between, nothing is
// written twice (the take-over check drops the memory; the history write is also keyed by play, so this test
// holds by either).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { movieLongerThan, startActivityHarness, viewer, type ActivityHarness } from './test-support/activity-test-harness.js';

describe('activity monitor standby and take-over', () => {
  let h: ActivityHarness;
  let userId: string;
  let itemId: string;
  beforeEach(async () => {
    h = await startActivityHarness('jellyfin', { mergeWindowMinutes: 0 });
    userId = viewer(h.sim);
    itemId = movieLongerThan(h.sim, 30);
  });
  afterEach(async () => {
    await h.close();
  });

  const livePlayedSeconds = async () =>
    (await h.db.query<{ played_seconds: number }>('SELECT played_seconds FROM live_sessions')).map((row) => Math.round(row.played_seconds));

  it('writes nothing while observing, then the play that ended meanwhile with its true duration', async () => {
    const play = h.sim.control.startPlay({ userId, itemId });
    await h.run(20_000, 1000);
    const saved = await livePlayedSeconds();
    h.monitor.observeOnly();
    await h.run(30_000, 1000);
    h.sim.control.stop(play.playId);
    await h.run(2000, 1000);
    expect(await livePlayedSeconds()).toEqual(saved);
    expect(await h.history()).toEqual([]);

    h.monitor.takeOver();
    await h.run(1000, 1000);
    const rows = await h.history();
    expect(rows).toHaveLength(1);
    expect(Math.abs(rows[0]!.played_seconds - h.sim.control.play(play.playId)!.secondsUnpaused)).toBeLessThanOrEqual(1);
    expect(await livePlayedSeconds()).toEqual([]);
  });

  it('after another leader wrote meanwhile, writes nothing twice', async () => {
    const play = h.sim.control.startPlay({ userId, itemId });
    await h.run(20_000, 1000);
    const standby = h.monitor;
    standby.observeOnly();
    const other = h.newMonitor();
    await h.run(10_000, 1000, other);
    h.sim.control.stop(play.playId);
    await standby.pollOnce();
    await h.run(2000, 1000, other);
    const written = await h.history();
    expect(written).toHaveLength(1);

    standby.takeOver();
    await h.run(2000, 1000, standby);
    expect(await h.history()).toEqual(written);
    expect(await livePlayedSeconds()).toEqual([]);
  });
});
