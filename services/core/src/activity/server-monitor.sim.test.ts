// Scripted situations of MEDIA_SERVER_CONTRACT.md §10 against the simulator (both flavors), each asserting the
// exact history rows the activity monitor writes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { movieLongerThan, startActivityHarness, TICKS, viewer, type ActivityHarness } from './test-support/activity-test-harness.js';

describe.each(['jellyfin', 'emby'] as const)('activity monitor on %s', (kind) => {
  let h: ActivityHarness;
  beforeEach(async () => {
    h = await startActivityHarness(kind);
  });
  afterEach(async () => {
    // Every scenario ends with the statistics equal to their recomputation from the history.
    try {
      expect(await h.rollupDifferences()).toEqual([]);
    } finally {
      await h.close();
    }
  });

  const truth = (playId: string) => h.sim.control.play(playId)!;

  it('pause and resume: one play with played and paused seconds, every recorded field filled', async () => {
    const userId = viewer(h.sim);
    const itemId = movieLongerThan(h.sim, 30);
    const play = h.sim.control.startPlay({
      userId,
      itemId,
      client: kind === 'jellyfin' ? 'jellyfin-web' : 'emby-web',
      method: 'Transcode',
    });
    const first = await h.monitor.pollOnce();
    expect(first.sessions).toEqual([
      expect.objectContaining({
        Id: play.sessionId,
        UserId: userId,
        ServerId: h.serverId,
        PlayState: expect.objectContaining({ IsPaused: false, PlayMethod: 'Transcode', PositionTicks: 0 }),
        TranscodingInfo: expect.objectContaining({ IsVideoDirect: expect.any(Boolean) }),
        NowPlayingItem: expect.objectContaining({
          Id: itemId,
          Type: 'Movie',
          MediaStreams: expect.arrayContaining([expect.objectContaining({ Type: 'Video' })]),
        }),
      }),
    ]);
    const playing = await h.registry.metrics();
    expect(playing).toMatch(/^reelstat_activity_sessions\{server="sim",play_method="Transcode"\} 1$/m);
    expect(playing).toMatch(/^reelstat_activity_transcodes\{server="sim"\} 1$/m);
    await h.run(63_000);
    h.sim.control.pause(play.playId);
    await h.run(30_000);
    h.sim.control.resume(play.playId);
    await h.run(41_000);
    h.sim.control.stop(play.playId);
    await h.run(2000);

    const t = truth(play.playId);
    expect(t.secondsUnpaused).toBe(104);
    const rows = await h.history();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      user_id: userId,
      user_name: t.userName,
      item_id: itemId,
      item_name: t.itemName,
      item_type: 'Movie',
      client: t.client,
      device_name: t.deviceName,
      device_id: t.deviceId,
      remote_end_point: t.remoteEndPoint,
      play_method: 'Transcode',
      played_seconds: 104,
      paused_seconds: 30,
      start_position_ticks: t.startPositionTicks,
      end_position_ticks: t.endPositionTicks,
      run_time_ticks: h.sim.control.item(itemId)!.runTimeTicks,
    });
    expect(row.application_version).toBeTruthy();
    expect(row.library_id).toBe(h.sim.control.item(itemId)!.libraryId);
    expect(row.started_at.getTime()).toBe(t.startedAtMs);
    expect(row.ended_at!.getTime()).toBe(t.endedAtMs);
    expect(row.transcoding_info).toMatchObject({ IsVideoDirect: expect.any(Boolean), IsAudioDirect: expect.any(Boolean) });
    expect(row.stream_details).toMatchObject({
      Source: expect.any(Object),
      Stream: expect.any(Object),
      ReportedPlayMethod: 'Transcode',
      MediaStreams: expect.arrayContaining([
        expect.objectContaining({ Type: 'Video', Codec: expect.any(String), Index: expect.any(Number) }),
      ]),
      OriginalContainer: expect.any(String),
    });
    // Written at the stop, and still kept in the live state so a resume within the merge window can extend it.
    expect(await h.liveCount()).toBe(1);
    expect(h.events.started.map((e) => e.itemId)).toEqual([itemId]);
    expect(h.events.ended.map((e) => [e.itemId, e.playedSeconds, e.completed])).toEqual([[itemId, 104, false]]);
    const after = await h.registry.metrics();
    expect(after).toMatch(/^reelstat_activity_plays_total\{server="sim",play_method="Transcode"\} 1$/m);
    expect(after).toMatch(/^reelstat_activity_watch_seconds_total\{server="sim",play_method="Transcode"\} 104$/m);
    expect(after).toMatch(/^reelstat_activity_sessions\{server="sim",play_method="Transcode"\} 0$/m);
  });

  it('seeks do not change played time; the play method follows the naming rule for the server kind', async () => {
    const itemId = movieLongerThan(h.sim, 40);
    const play = h.sim.control.startPlay({ userId: viewer(h.sim), itemId, method: 'DirectPlay' });
    await h.run(35_000);
    h.sim.control.seek(play.playId, 20 * 60 * TICKS);
    await h.run(20_000, 3000);
    h.sim.control.seek(play.playId, 5 * 60 * TICKS);
    await h.run(25_000, 2000);
    h.sim.control.stop(play.playId);
    await h.run(2000);
    const [row] = await h.history();
    expect(truth(play.playId).secondsUnpaused).toBe(80);
    expect(row).toMatchObject({ played_seconds: 80, paused_seconds: 0, play_method: kind === 'jellyfin' ? 'DirectPlay' : 'DirectStream' });
    expect(Number(row!.end_position_ticks)).toBe(truth(play.playId).endPositionTicks);
  });

  it('autoplay of the next episode between two polls gives two plays, the first completed', async () => {
    const episode = h.sim.control
      .itemIds('Episode')
      .map((id) => h.sim.control.item(id)!)
      .find((e) => (e.parentIndexNumber ?? 0) > 0 && h.sim.control.item(e.id) && (e.runTimeTicks ?? 0) > 10 * 60 * TICKS && hasNext(e.id))!;
    const run = episode.runTimeTicks!;
    const play = h.sim.control.startPlay({ userId: viewer(h.sim), itemId: episode.id, startPositionTicks: run - 95 * TICKS });
    await h.run(100_000, 7000);
    await h.run(60_000, 7000);
    const truths = h.sim.control.groundTruth();
    expect(truths).toHaveLength(2);
    const next = truths[1]!;
    expect(next.itemId).not.toBe(episode.id);
    h.sim.control.stop(next.playId);
    await h.run(7000, 7000);
    const rows = await h.history();
    expect(rows.map((r) => [r.item_id, r.played_seconds, r.episode_number])).toEqual([
      [episode.id, 95, episode.indexNumber],
      [next.itemId, Math.round(h.sim.control.play(next.playId)!.secondsUnpaused), h.sim.control.item(next.itemId)!.indexNumber],
    ]);
    expect(rows[0]!.ended_at!.getTime()).toBe(truth(play.playId).endedAtMs);
    expect(rows[1]!.started_at.getTime()).toBe(next.startedAtMs);
    expect(rows[0]!.series_id).toBe(episode.seriesId);
  });

  it('a client that vanishes is recorded up to when it went, within half a poll', async () => {
    const play = h.sim.control.startPlay({ userId: viewer(h.sim), itemId: movieLongerThan(h.sim, 20) });
    await h.run(64_500, 1500);
    h.sim.control.vanish(play.playId);
    await h.run(3000, 1500);
    const [row] = await h.history();
    const t = truth(play.playId);
    expect(t.endReason).toBe('vanished');
    expect(Math.abs(row!.played_seconds - t.secondsUnpaused)).toBeLessThanOrEqual(1);
  });

  it('a client that goes quiet is credited until its last report, not until the server auto-stops it', async () => {
    const play = h.sim.control.startPlay({ userId: viewer(h.sim), itemId: movieLongerThan(h.sim, 30) });
    await h.run(125_000, 5000);
    h.sim.control.vanish(play.playId, { keepSession: true });
    await h.run(11 * 60_000, 5000);
    const t = truth(play.playId);
    expect(t.endReason).toBe('auto-stopped');
    const rows = await h.history();
    expect(rows).toHaveLength(1);
    expect(Math.abs(rows[0]!.played_seconds - t.secondsUnpaused)).toBeLessThanOrEqual(10);
  });

  it('a media server restart ends the plays at the restart', async () => {
    const a = h.sim.control.startPlay({ userId: viewer(h.sim, 0), itemId: movieLongerThan(h.sim, 20, 0) });
    const b = h.sim.control.startPlay({
      userId: viewer(h.sim, 1),
      itemId: movieLongerThan(h.sim, 20, 1),
      client: kind === 'jellyfin' ? 'kodi' : 'emby-android',
    });
    await h.run(90_000, 2000);
    await h.sim.control.restartServer();
    await h.run(4000, 2000);
    const rows = await h.history();
    expect(rows.map((r) => r.item_id).sort()).toEqual([a.itemId, b.itemId].sort());
    for (const row of rows) expect(Math.abs(row.played_seconds - 90)).toBeLessThanOrEqual(1);
    expect(truth(a.playId).endReason).toBe('server-restart');
  });

  it('a Reelstat restart mid-play continues the play from the database and records it once', async () => {
    const play = h.sim.control.startPlay({ userId: viewer(h.sim), itemId: movieLongerThan(h.sim, 30) });
    await h.run(60_000);
    // The old process is gone; 20 s later a new one starts with nothing in memory.
    h.sim.control.advance(20_000);
    const restarted = h.newMonitor();
    await h.run(40_000, 1000, restarted);
    h.sim.control.stop(play.playId);
    await h.run(2000, 1000, restarted);
    const rows = await h.history();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.played_seconds).toBe(120);
    expect(rows[0]!.started_at.getTime()).toBe(truth(play.playId).startedAtMs);
  });

  it('two monitors racing on one server (a failover overlap) still write each play once', async () => {
    const other = h.newMonitor();
    const play = h.sim.control.startPlay({ userId: viewer(h.sim), itemId: movieLongerThan(h.sim, 30) });
    for (let i = 0; i < 40; i++) {
      h.sim.control.advance(1500);
      await Promise.all([h.monitor.pollOnce(), other.pollOnce()]);
    }
    h.sim.control.stop(play.playId);
    h.sim.control.advance(1000);
    await Promise.all([h.monitor.pollOnce(), other.pollOnce()]);
    const rows = await h.history();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.played_seconds).toBe(60);
    const [rollup] = await h.db.query<{ plays: number; played_seconds: number }>(
      'SELECT sum(plays)::int AS plays, sum(played_seconds)::int AS played_seconds FROM play_rollups WHERE server_id = $1',
      [h.serverId],
    );
    expect(rollup).toEqual({ plays: 1, played_seconds: 60 });
  });

  it('theme songs, trailers, pre-rolls, untracked users and libraries, and short plays are not recorded', async () => {
    const movies = h.sim.control.itemIds('Movie').map((id) => h.sim.control.item(id)!);
    const themed = [...h.sim.control.itemIds('Series'), ...h.sim.control.itemIds('Movie')]
      .map((id) => h.sim.control.item(id)!)
      .find((i) => i.themeSongIds?.length)!;
    const trailers = movies.filter((m) => m.localTrailerIds?.length).map((m) => m.localTrailerIds![0]!);
    const song = h.sim.control.startPlay({ userId: viewer(h.sim, 0), itemId: themed.themeSongIds![0]!, client: 'jellyfin-web' });
    const feature = movieLongerThan(h.sim, 30, 2);
    h.sim.control.startPlay({ userId: viewer(h.sim, 1), itemId: feature, client: 'kodi', preRollIds: trailers.slice(0, 2) });
    // Untracked user (no media_users row yet: untracking creates one).
    const untracked = viewer(h.sim, 2);
    await h.db.query(`INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, $2, 'x', false)`, [h.serverId, untracked]);
    h.sim.control.startPlay({ userId: untracked, itemId: movieLongerThan(h.sim, 30, 3), client: 'infuse' });
    // Untracked library: the music library, whose items sync has not seen (found by asking the server).
    const track = h.sim.control.itemIds('Audio')[0]!;
    const musicLibrary = h.sim.control.item(track)!.libraryId!;
    await h.db.query(`INSERT INTO libraries (server_id, id, name, tracked) VALUES ($1, $2, 'Music', false)`, [h.serverId, musicLibrary]);
    h.sim.control.startPlay({ userId: viewer(h.sim, 0), itemId: track, client: 'finamp' });
    // Too short: 12 s of a movie.
    const short = h.sim.control.startPlay({ userId: viewer(h.sim, 3), itemId: movieLongerThan(h.sim, 30, 4), client: 'android-tv' });
    await h.run(12_000);
    h.sim.control.stop(short.playId);
    const preRollSeconds = trailers.slice(0, 2).reduce((sum, id) => sum + h.sim.control.item(id)!.runTimeTicks! / TICKS, 0);
    await h.run(Math.ceil(preRollSeconds) * 1000 + 120_000, 2000);
    for (const p of h.sim.control.activePlays()) h.sim.control.stop(p.playId);
    await h.run(12 * 60_000, 30_000);
    expect(h.sim.control.play(song.playId)!.extraType).toBe('ThemeSong');
    const rows = await h.history();
    expect(rows.map((r) => r.item_id)).toEqual([feature]);
    expect(await h.liveCount()).toBe(0);
  });

  function hasNext(episodeId: string): boolean {
    const e = h.sim.control.item(episodeId)!;
    const siblings = h.sim.control.itemIds('Episode').map((id) => h.sim.control.item(id)!);
    return siblings.some(
      (s) => s.seriesId === e.seriesId && s.parentIndexNumber === e.parentIndexNumber && (s.indexNumber ?? 0) === (e.indexNumber ?? 0) + 1,
    );
  }
});
