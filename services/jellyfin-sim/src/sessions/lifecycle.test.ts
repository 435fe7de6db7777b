// Session lifecycle on the virtual clock (contract §10) and ground-truth bookkeeping.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../index.js';
import { Client, SECOND, start } from '../testing.test-helpers.js';

let sim: RunningSimulator;
let api: Client;
let userId: string;

type Session = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeEach(async () => {
  sim = await start();
  api = new Client(sim);
  userId = sim.control.users().find((u) => u.isAdministrator)!.id;
});
afterEach(async () => sim.stop());

const sessions = async (): Promise<Session[]> => (await api.get<Session[]>('/Sessions')).json;
const sessionOf = async (id: string): Promise<Session> => (await sessions()).find((s) => s.Id === id) as Session;

function longMovie(): string {
  // a movie longer than an hour, so scripted timelines never reach the end
  const ids = sim.control.itemIds('Movie');
  return ids.find((id) => (sim.control.item(id)?.runTimeTicks ?? 0) > 3600 * SECOND) as string;
}

describe('session lifecycle', () => {
  it('an idle session has no NowPlayingItem and the idle PlayState', async () => {
    const s = sim.control.connect({ userId, client: 'jellyfin-web' });
    const dto = await sessionOf(s.sessionId);
    expect(dto.NowPlayingItem).toBeUndefined();
    expect(dto.TranscodingInfo).toBeUndefined();
    expect(dto.PlayState).toEqual({ CanSeek: false, IsPaused: false, IsMuted: false, RepeatMode: 'RepeatNone', PlaybackOrder: 'Default' });
    expect(dto.LastPlaybackCheckIn).toBe('0001-01-01T00:00:00.0000000Z');
    expect(dto.IsActive).toBe(true);
    expect(dto.Client).toBe('Jellyfin Web');
  });

  it('start → progress every 10 s with PositionTicks constant between reports', async () => {
    const itemId = longMovie();
    const play = sim.control.startPlay({ userId, itemId, client: 'android-tv', method: 'DirectPlay', startPositionTicks: 60 * SECOND });
    let dto = await sessionOf(play.sessionId);
    expect(dto.NowPlayingItem.Id).toBe(itemId);
    expect(dto.NowPlayingItem.MediaStreams.length).toBeGreaterThan(0);
    expect(dto.NowPlayingItem.MediaSources).toBeUndefined();
    expect(dto.NowPlayingItem.UserData).toBeUndefined();
    expect(dto.PlayState).toMatchObject({
      PositionTicks: 60 * SECOND,
      IsPaused: false,
      PlayMethod: 'DirectPlay',
      MediaSourceId: itemId,
      CanSeek: true,
    });
    expect(dto.TranscodingInfo).toBeUndefined();
    sim.control.advance(9_999);
    dto = await sessionOf(play.sessionId);
    expect(dto.PlayState.PositionTicks).toBe(60 * SECOND);
    sim.control.advance(1);
    dto = await sessionOf(play.sessionId);
    expect(dto.PlayState.PositionTicks).toBe(70 * SECOND);
    sim.control.advance(25_000);
    dto = await sessionOf(play.sessionId);
    expect(dto.PlayState.PositionTicks).toBe(90 * SECOND); // reports at +20 s and +30 s; nothing extrapolated
    expect(Date.parse(dto.LastPlaybackCheckIn)).toBe(sim.control.clock.now() - 5_000);
    const item = (await api.get<Record<string, any>>(`/Items/${itemId}?userId=${userId}`)).json; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(item.UserData.PlayCount).toBeGreaterThanOrEqual(1);
    expect(Date.parse(item.UserData.LastPlayedDate)).toBe(Date.parse(play.startedAt));
  });

  it('a transcode carries TranscodingInfo with a reasons array', async () => {
    const play = sim.control.startPlay({
      userId,
      itemId: longMovie(),
      client: 'jellyfin-web',
      method: 'Transcode',
      transcodeReasons: ['VideoCodecNotSupported', 'AudioCodecNotSupported'],
    });
    const dto = await sessionOf(play.sessionId);
    expect(dto.PlayState.PlayMethod).toBe('Transcode');
    expect(dto.TranscodingInfo.TranscodeReasons).toEqual(['VideoCodecNotSupported', 'AudioCodecNotSupported']);
    expect(dto.TranscodingInfo.IsVideoDirect).toBe(false);
    expect(dto.TranscodingInfo.HardwareAccelerationType).toBe('vaapi');
    const remux = sim.control.startPlay({
      userId,
      itemId: longMovie(),
      client: 'kodi',
      method: 'Transcode',
      transcodeVideo: false,
      transcodeAudio: false,
    });
    const r = await sessionOf(remux.sessionId);
    expect(r.TranscodingInfo).toMatchObject({ IsVideoDirect: true, IsAudioDirect: true, TranscodeReasons: ['ContainerNotSupported'] });
  });

  it('pause keeps the position; resume continues; ground truth splits paused and unpaused time', async () => {
    const play = sim.control.startPlay({ userId, itemId: longMovie(), client: 'jellyfin-web', method: 'DirectStream' });
    sim.control.advance(95_000);
    sim.control.pause(play.playId);
    let dto = await sessionOf(play.sessionId);
    expect(dto.PlayState.IsPaused).toBe(true);
    expect(dto.PlayState.PositionTicks).toBe(95 * SECOND); // pause is reported at once
    expect(Date.parse(dto.LastPausedDate)).toBe(sim.control.clock.now());
    sim.control.advance(120_000);
    dto = await sessionOf(play.sessionId);
    expect(dto.PlayState.PositionTicks).toBe(95 * SECOND);
    expect(Date.parse(dto.LastPlaybackCheckIn)).toBeGreaterThan(Date.parse(dto.LastPausedDate)); // paused clients still check in
    sim.control.resume(play.playId);
    dto = await sessionOf(play.sessionId);
    expect(dto.PlayState.IsPaused).toBe(false);
    expect(dto.LastPausedDate).toBeUndefined();
    sim.control.advance(30_000);
    const truth = sim.control.stop(play.playId);
    expect(truth).toMatchObject({
      secondsUnpaused: 125,
      secondsPaused: 120,
      pauseCount: 1,
      endReason: 'stopped',
      active: false,
      endPositionTicks: 125 * SECOND,
      playMethod: 'DirectStream',
    });
    expect(truth.endedAtMs! - truth.startedAtMs).toBe(245_000);
  });

  it('seek moves the reported position immediately and does not count as watched time', async () => {
    const play = sim.control.startPlay({ userId, itemId: longMovie(), client: 'swiftfin' });
    sim.control.advance(40_000);
    sim.control.seek(play.playId, 1800 * SECOND);
    expect((await sessionOf(play.sessionId)).PlayState.PositionTicks).toBe(1800 * SECOND);
    sim.control.advance(20_000);
    const truth = sim.control.stop(play.playId);
    expect(truth.secondsUnpaused).toBe(60);
    expect(truth.seekCount).toBe(1);
    expect(truth.endPositionTicks).toBe(1820 * SECOND);
  });

  it('stop removes NowPlayingItem, resets PlayState, keeps the session and updates UserData', async () => {
    const itemId = longMovie();
    const play = sim.control.startPlay({ userId, itemId, client: 'jellyfin-web', method: 'Transcode' });
    sim.control.advance(20 * 60_000);
    sim.control.stop(play.playId);
    const dto = await sessionOf(play.sessionId);
    expect(dto).toBeDefined();
    expect(dto.NowPlayingItem).toBeUndefined();
    expect(dto.TranscodingInfo).toBeUndefined();
    expect(dto.PlayState).toEqual({ CanSeek: false, IsPaused: false, IsMuted: false, RepeatMode: 'RepeatNone', PlaybackOrder: 'Default' });
    const item = (await api.get<Record<string, any>>(`/Items/${itemId}?userId=${userId}`)).json; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(item.UserData.PlaybackPositionTicks).toBe(1200 * SECOND);
    expect(item.UserData.Played).toBe(false);
  });

  it('autoplay continues with the next episode on the same session', async () => {
    const ep = sim.control
      .itemIds('Episode')
      .map((id) => sim.control.item(id)!)
      .find((e) => e.indexNumber === 1 && (e.parentIndexNumber ?? 0) > 0)!;
    const play = sim.control.startPlay({ userId, itemId: ep.id, client: 'android-tv', method: 'DirectPlay' });
    const runMs = ep.runTimeTicks! / 10_000;
    sim.control.advance(runMs + 5_000);
    const truth = sim.control.groundTruth();
    expect(truth[0]).toMatchObject({ playId: play.playId, endReason: 'autoplay-next', completed: true, secondsUnpaused: runMs / 1000 });
    expect(truth[1]).toMatchObject({ sessionId: play.sessionId, active: true, startedAtMs: play.startedAtMs + runMs });
    const next = sim.control.item(truth[1]!.itemId)!;
    expect(next.seriesId).toBe(ep.seriesId);
    expect([next.indexNumber, next.parentIndexNumber]).toEqual([2, ep.parentIndexNumber]);
    const dto = await sessionOf(play.sessionId);
    expect(dto.NowPlayingItem.Id).toBe(next.id);
    const played = (await api.get<Record<string, any>>(`/Items/${ep.id}?userId=${userId}`)).json; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(played.UserData.Played).toBe(true);
  });

  it('nextEpisode skips ahead: the current play ends, the next one starts', async () => {
    const ep = sim.control
      .itemIds('Episode')
      .map((id) => sim.control.item(id)!)
      .find((e) => e.indexNumber === 1 && (e.parentIndexNumber ?? 0) > 0)!;
    const play = sim.control.startPlay({ userId, itemId: ep.id, client: 'kodi' });
    sim.control.advance(30_000);
    const next = sim.control.nextEpisode(play.playId);
    expect(sim.control.play(play.playId)).toMatchObject({ endReason: 'stopped', secondsUnpaused: 30, completed: false });
    expect(next.sessionId).toBe(play.sessionId);
    expect(sim.control.item(next.itemId)?.indexNumber).toBe(2);
  });

  it('a vanished client takes its session with it', async () => {
    const play = sim.control.startPlay({ userId, itemId: longMovie(), client: 'infuse', remote: true });
    sim.control.advance(42_000);
    const truth = sim.control.vanish(play.playId);
    expect(truth).toMatchObject({ endReason: 'vanished', secondsUnpaused: 42, active: false });
    expect(await sessionOf(play.sessionId)).toBeUndefined();
    expect(truth.remoteEndPoint).not.toMatch(/^(192\.168|10\.)/);
  });

  it('a client that goes quiet is auto-stopped once its last check-in is more than 5 minutes old', async () => {
    const itemId = longMovie();
    const play = sim.control.startPlay({ userId, itemId, client: 'kodi' });
    sim.control.advance(65_000); // reports at 10…60 s
    sim.control.vanish(play.playId, { keepSession: true });
    sim.control.advance(4 * 60_000);
    let dto = await sessionOf(play.sessionId);
    expect(dto.NowPlayingItem.Id).toBe(itemId); // frozen: the server does not know yet
    expect(dto.PlayState.PositionTicks).toBe(60 * SECOND);
    sim.control.advance(10 * 60_000);
    dto = await sessionOf(play.sessionId);
    expect(dto.NowPlayingItem).toBeUndefined();
    const truth = sim.control.play(play.playId)!;
    expect(truth).toMatchObject({ endReason: 'auto-stopped', secondsUnpaused: 65, active: false });
    expect(truth.endedAtMs! - truth.startedAtMs).toBe(65_000);
    // The idle check runs every 5 minutes from the first playback, as in Jellyfin.
    expect(truth.serverStoppedAtMs! - truth.startedAtMs).toBe(10 * 60_000);
  });

  it('paused sessions keep checking in and are not auto-stopped', async () => {
    const play = sim.control.startPlay({ userId, itemId: longMovie(), client: 'jellyfin-web' });
    sim.control.pause(play.playId);
    sim.control.advance(30 * 60_000);
    expect(sim.control.play(play.playId)).toMatchObject({ active: true, secondsPaused: 1800, secondsUnpaused: 0 });
  });

  it('a server restart drops every session and ends plays with server-restart', async () => {
    const a = sim.control.startPlay({ userId, itemId: longMovie(), client: 'jellyfin-web' });
    sim.control.connect({ userId, client: 'kodi' });
    sim.control.advance(12_000);
    await sim.control.restartServer();
    expect(await sessions()).toEqual([]);
    expect(sim.control.play(a.playId)).toMatchObject({ endReason: 'server-restart', secondsUnpaused: 12 });
  });

  it('theme songs and trailers can be played and are marked as extras', async () => {
    const owner = sim.control
      .itemIds('Movie')
      .map((id) => sim.control.item(id)!)
      .find((m) => m.localTrailerIds?.length)!;
    const trailerId = owner.localTrailerIds![0]!;
    const play = sim.control.startPlay({ userId, itemId: trailerId, client: 'jellyfin-web' });
    expect(play.extraType).toBe('Trailer');
    const dto = await sessionOf(play.sessionId);
    expect(dto.NowPlayingItem.ExtraType).toBe('Trailer');
    const themed = [...sim.control.itemIds('Series'), ...sim.control.itemIds('Movie')]
      .map((id) => sim.control.item(id)!)
      .find((i) => i.themeSongIds?.length)!;
    const song = sim.control.startPlay({ userId, itemId: themed.themeSongIds![0]!, client: 'jellyfin-web' });
    expect(song.extraType).toBe('ThemeSong');
    // extras never show up in /Items listings
    const all = await api.get<{ Items: { Id: string }[] }>('/Items?recursive=true');
    expect(all.json.Items.some((i) => i.Id === trailerId || i.Id === themed.themeSongIds![0])).toBe(false);
  });

  it('pre-rolls play first in the same session, then the feature starts', async () => {
    const movies = sim.control.itemIds('Movie').map((id) => sim.control.item(id)!);
    const trailers = movies
      .filter((m) => m.localTrailerIds?.length)
      .map((m) => m.localTrailerIds![0]!)
      .slice(0, 2);
    expect(trailers.length).toBe(2);
    const feature = longMovie();
    const first = sim.control.startPlay({ userId, itemId: feature, client: 'jellyfin-web', preRollIds: trailers });
    expect(first.itemId).toBe(trailers[0]);
    const t1 = sim.control.item(trailers[0]!)!.runTimeTicks! / 10_000;
    const t2 = sim.control.item(trailers[1]!)!.runTimeTicks! / 10_000;
    sim.control.advance(t1 + t2 + 60_000);
    const truth = sim.control.groundTruth();
    expect(truth.map((p) => [p.itemId, p.endReason, p.extraType])).toEqual([
      [trailers[0], 'autoplay-next', 'Trailer'],
      [trailers[1], 'autoplay-next', 'Trailer'],
      [feature, undefined, undefined],
    ]);
    expect(new Set(truth.map((p) => p.sessionId)).size).toBe(1);
    expect(truth[2]).toMatchObject({ active: true, secondsUnpaused: 60 });
    expect((await sessionOf(first.sessionId)).NowPlayingItem.Id).toBe(feature);
  });

  it('non-admin callers see only their own sessions and HardwareAccelerationType "none"', async () => {
    const other = sim.control.users().find((u) => !u.isAdministrator && !u.isDisabled)!;
    sim.control.startPlay({ userId, itemId: longMovie(), client: 'jellyfin-web', method: 'Transcode' });
    const own = sim.control.startPlay({ userId: other.id, itemId: longMovie(), client: 'android-tv', method: 'Transcode' });
    const { accessToken, sessionId } = sim.control.userToken(other.id);
    const asUser = new Client(sim, { Authorization: `MediaBrowser Token="${accessToken}"` });
    const list = (await asUser.get<Session[]>('/Sessions')).json;
    expect(list.map((s) => s.Id).sort()).toEqual([own.sessionId, sessionId].sort());
    expect(list.find((s) => s.Id === own.sessionId)?.TranscodingInfo.HardwareAccelerationType).toBe('none');
  });

  it('activeWithinSeconds filters on LastActivityDate; the list is ordered by activity', async () => {
    const old = sim.control.connect({ userId, client: 'kodi' });
    sim.control.advance(20 * 60_000);
    const fresh = sim.control.connect({ userId, client: 'jellyfin-web' });
    const recent = (await api.get<Session[]>('/Sessions?activeWithinSeconds=960')).json.map((s) => s.Id);
    expect(recent).toEqual([fresh.sessionId]);
    const all = (await api.get<Session[]>('/Sessions')).json.map((s) => s.Id);
    expect(all).toEqual([fresh.sessionId, old.sessionId]);
  });

  it('clients can drive their own session with /Sessions/Playing reports', async () => {
    const itemId = longMovie();
    const { accessToken, sessionId } = sim.control.userToken(userId, 'Jellyfin Web', 'dev-1');
    const c = new Client(sim, { Authorization: `MediaBrowser Token="${accessToken}"` });
    expect((await c.post('/Sessions/Playing', { ItemId: itemId, PositionTicks: 0, PlayMethod: 'DirectPlay' })).status).toBe(204);
    sim.control.advance(7_000);
    expect((await c.post('/Sessions/Playing/Progress', { ItemId: itemId, PositionTicks: 7 * SECOND, IsPaused: false })).status).toBe(204);
    expect((await sessionOf(sessionId)).PlayState.PositionTicks).toBe(7 * SECOND);
    sim.control.advance(3_000);
    expect((await sessionOf(sessionId)).PlayState.PositionTicks).toBe(7 * SECOND); // no server-side timer for real clients
    expect((await c.post('/Sessions/Playing/Stopped', { ItemId: itemId, PositionTicks: -1 })).status).toBe(400);
    expect((await c.post('/Sessions/Playing/Stopped', { ItemId: itemId, PositionTicks: 10 * SECOND })).status).toBe(204);
    expect((await sessionOf(sessionId)).NowPlayingItem).toBeUndefined();
    expect(sim.control.groundTruth()[0]).toMatchObject({ endReason: 'stopped', secondsUnpaused: 10 });
  });

  it('a client-driven play that stops reporting is auto-stopped by the idle check', async () => {
    const track = sim.control.itemIds('Audio', 1)[0]!;
    const { accessToken, sessionId } = sim.control.userToken(userId, 'Finamp', 'phone-1');
    const c = new Client(sim, { Authorization: `MediaBrowser Token="${accessToken}"` });
    await c.post('/Sessions/Playing', { ItemId: track, PositionTicks: 0, PlayMethod: 'DirectPlay' });
    sim.control.advance(60 * 60_000); // far past the end of the track: the simulator does not end client-driven plays itself
    expect((await sessionOf(sessionId)).NowPlayingItem).toBeUndefined();
    expect(sim.control.groundTruth()[0]).toMatchObject({ endReason: 'auto-stopped', active: false });
  });

  it('Playback Reporting rows get PlayDuration = seconds not paused', async () => {
    const play = sim.control.startPlay({ userId, itemId: longMovie(), client: 'jellyfin-web', method: 'Transcode', transcodeVideo: true });
    sim.control.advance(100_000);
    sim.control.pause(play.playId);
    sim.control.advance(50_000);
    sim.control.resume(play.playId);
    sim.control.advance(33_000);
    sim.control.stop(play.playId);
    const r = await api.post<{ colums: string[]; results: string[][] }>('/user_usage_stats/submit_custom_query', {
      CustomQueryString: 'SELECT rowid, UserId, ItemId, PlayDuration, PlaybackMethod, ClientName FROM PlaybackActivity',
    });
    expect(r.json.colums).toEqual(['rowid', 'UserId', 'ItemId', 'PlayDuration', 'PlaybackMethod', 'ClientName']);
    expect(r.json.results).toEqual([
      ['1', userId, play.itemId, '133', expect.stringMatching(/^Transcode \(v:h264 a:(aac|direct)\)$/), 'Jellyfin Web'],
    ]);
  });
});
