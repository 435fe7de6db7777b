// A monitor on standby (its process lost leadership with the database connection) keeps observing without
// writing; taken over again, it writes what it saw. If another leader wrote the live state in between, nothing is
// written twice. The history write is also keyed by play, so rows alone cannot tell whether the take-over check
// worked: the last test counts the playback events (and the live rows), which only that check keeps single.
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

  /** The in-process bus delivers on setImmediate: one more turn of it and every event published so far has arrived. */
  const eventsDelivered = () => new Promise((resolve) => setImmediate(resolve));

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

  it('after another leader wrote meanwhile, carries on from the database: no event twice, the next play once', async () => {
    const first = h.sim.control.startPlay({ userId, itemId });
    await h.run(20_000, 1000);
    const standby = h.monitor;
    standby.observeOnly();
    const other = h.newMonitor();
    await h.run(5000, 1000, other);
    // Both see a second play start and the first one end; only the new leader writes them.
    const second = h.sim.control.startPlay({ userId: viewer(h.sim, 1), itemId: movieLongerThan(h.sim, 30, 1) });
    await standby.pollOnce();
    await h.run(20_000, 1000, other);
    h.sim.control.stop(first.playId);
    await standby.pollOnce();
    await h.run(2000, 1000, other);
    const byOther = { history: await h.history(), live: await h.db.query('SELECT * FROM live_sessions ORDER BY play_key') };
    expect(byOther.history).toHaveLength(1);
    expect(byOther.live).toHaveLength(1);
    const keys = (events: Array<{ playKey: string }>) => events.map((event) => event.playKey).sort();
    await eventsDelivered();
    const startedKeys = keys(h.events.started);
    const endedKeys = keys(h.events.ended);
    expect(startedKeys).toHaveLength(2);
    expect(endedKeys).toEqual([byOther.history[0]!.play_key]);

    // The standby's memory (the second play's start, the first one's end) was written by the other leader: the
    // take-over poll finds the database changed, drops its memory and publishes nothing.
    standby.takeOver();
    await standby.pollOnce();
    await eventsDelivered();
    expect(keys(h.events.started)).toEqual(startedKeys);
    expect(keys(h.events.ended)).toEqual(endedKeys);
    expect(await h.history()).toEqual(byOther.history);
    expect(await h.db.query('SELECT * FROM live_sessions ORDER BY play_key')).toEqual(byOther.live);

    // From the database's state it leads on: the second play is recorded once, with its true duration.
    await h.run(10_000, 1000, standby);
    h.sim.control.stop(second.playId);
    await h.run(2000, 1000, standby);
    await eventsDelivered();
    const rows = await h.history();
    expect(rows).toHaveLength(2);
    const secondRow = rows.find((row) => row.play_key !== byOther.history[0]!.play_key)!;
    expect(Math.abs(secondRow.played_seconds - h.sim.control.play(second.playId)!.secondsUnpaused)).toBeLessThanOrEqual(1);
    expect(keys(h.events.started)).toEqual(startedKeys);
    expect(keys(h.events.ended)).toEqual([...endedKeys, secondRow.play_key].sort());
    expect(await livePlayedSeconds()).toEqual([]);
  });
});
