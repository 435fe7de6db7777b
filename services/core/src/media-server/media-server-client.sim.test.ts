// The client against the real simulator, for both flavors: detection, auth, users, libraries, paging, items,
// shows, sessions during a scripted play, images and the Playback Reporting plugin.
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaServerClient } from './create-client.js';
import type { MediaServerClient } from './media-server-client.js';
import { MediaServerError } from './media-server-error.js';
import { probeMediaServer } from './probe.js';
import { waitFor } from '../test-support/test-kit.js';
import { playbackReportingRecords } from './schemas/playback-reporting.js';

const START = Date.UTC(2026, 5, 1, 12);
const API_KEY = '0123456789abcdef0123456789abcdef';

async function rejection(promise: Promise<unknown>): Promise<MediaServerError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MediaServerError) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}

async function collectIds(
  client: MediaServerClient,
  pageSize: number,
  query = {},
): Promise<{ ids: string[]; totals: Set<number>; pages: number[] }> {
  const ids: string[] = [];
  const totals = new Set<number>();
  const pages: number[] = [];
  for await (const page of client.iterateItems(query, { pageSize })) {
    expect(page.startIndex).toBe(ids.length);
    ids.push(...page.items.map((i) => i.Id));
    totals.add(page.totalRecordCount);
    pages.push(page.items.length);
  }
  return { ids, totals, pages };
}

describe.each(['jellyfin', 'emby'] as const)('%s simulator', (flavor) => {
  let sim: RunningSimulator;
  let client: MediaServerClient;
  const unknownId = flavor === 'jellyfin' ? 'ffffffffffffffffffffffffffffffff' : '987654321';

  beforeAll(async () => {
    sim = await startSimulator({ flavor, scale: 'tiny', seed: 1, clock: 'virtual', startTime: START, apiKey: API_KEY });
    client = createMediaServerClient({ kind: flavor, url: sim.url, apiKey: API_KEY, now: () => sim.control.clock.now() });
  });
  afterAll(async () => sim.stop());

  describe('probe', () => {
    it('detects the kind, version and identity', async () => {
      const probe = await probeMediaServer(`${sim.url}///`, API_KEY);
      const info = await client.getPublicSystemInfo();
      expect(probe).toEqual({
        kind: flavor,
        serverName: flavor === 'jellyfin' ? 'reelstat-jellyfin-sim' : 'reelstat-emby-sim',
        version: flavor === 'jellyfin' ? '10.11.11' : '4.8.11.0',
        serverId: info.Id,
        productName: flavor === 'jellyfin' ? 'Jellyfin Server' : 'Emby Server',
        url: sim.url,
      });
      expect(info.Id).toMatch(/^[0-9a-f]{32}$/);
    });

    it('accepts an address that already carries /emby', async () => {
      const probe = await probeMediaServer(`${sim.url}/emby/`, API_KEY);
      expect(probe.kind).toBe(flavor);
      expect(probe.url).toBe(flavor === 'emby' ? sim.url : `${sim.url}/emby`);
    });

    it('rejects a wrong API key as unauthorized', async () => {
      const error = await rejection(probeMediaServer(sim.url, 'not-the-key'));
      expect(error.kind).toBe('unauthorized');
      expect(error.status).toBe(401);
      expect(error.message).toContain('/System/Info');
      expect(error.message).not.toContain('not-the-key');
    });

    it('rejects a non-administrator token as forbidden', async () => {
      const user = sim.control.users().find((u) => !u.isAdministrator && !u.isDisabled)!;
      const { accessToken } = sim.control.userToken(user.id);
      const error = await rejection(probeMediaServer(sim.url, accessToken));
      expect(error.kind).toBe('forbidden');
      expect(error.path).toMatch(/\/Library\/VirtualFolders/);
      const relaxed = await probeMediaServer(sim.url, accessToken, { requireAdmin: false });
      expect(relaxed.kind).toBe(flavor);
    });
  });

  it('reads the system info with the key', async () => {
    const info = await client.getSystemInfo();
    expect(info.Version).toBe(flavor === 'jellyfin' ? '10.11.11' : '4.8.11.0');
    expect(info.HasPendingRestart).toBe(false);
  });

  it('lists users and administrators', async () => {
    const truth = sim.control.users();
    const users = await client.getUsers();
    expect(users.map((u) => u.Id).sort()).toEqual(truth.map((u) => u.id).sort());
    for (const u of users) expect(u.Name).toBe(truth.find((t) => t.id === u.Id)!.name);
    const admins = await client.getAdminUsers();
    expect(admins.map((u) => u.Id).sort()).toEqual(
      truth
        .filter((u) => u.isAdministrator)
        .map((u) => u.id)
        .sort(),
    );
    expect(admins.length).toBeGreaterThan(0);
  });

  it('lists the libraries with their collection types', async () => {
    const libraries = await client.getLibraries();
    expect(libraries).toHaveLength(sim.control.counts().virtualFolders);
    expect(libraries.map((l) => [l.name, l.collectionType])).toEqual([
      ['Movies', 'movies'],
      ['Shows', 'tvshows'],
      ['Music', 'music'],
      ['Home & Mixed', 'mixed'],
      ['Collections', 'boxsets'],
    ]);
    for (const l of libraries) {
      expect(l.id).toMatch(flavor === 'jellyfin' ? /^[0-9a-f]{32}$/ : /^\d+$/);
      expect(l.locations.length).toBeGreaterThan(0);
    }
  });

  describe('items', () => {
    it.each([7, 50, 500])('pages through every item exactly once (page size %i)', async (pageSize) => {
      const expected = sim.control.counts().items;
      const { ids, totals, pages } = await collectIds(client, pageSize);
      expect(totals).toEqual(new Set([expected]));
      expect(ids).toHaveLength(expected);
      expect(new Set(ids).size).toBe(expected);
      expect(pages.slice(0, -1).every((n) => n === pageSize)).toBe(true);
      expect(pages.length).toBe(Math.ceil(expected / pageSize));
    });

    it('filters by type and parent, with the stats fields', async () => {
      const movies = (await client.getLibraries()).find((l) => l.collectionType === 'movies')!;
      const found: string[] = [];
      let withPoster = 0;
      for await (const page of client.iterateItems({ parentId: movies.id, includeItemTypes: ['Movie'] }, { pageSize: 16 })) {
        for (const item of page.items) {
          found.push(item.Id);
          expect(item.Type).toBe('Movie');
          expect(item.DateCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
          expect(item.Path).toMatch(/^\/media\/movies\//);
          expect(item.RunTimeTicks).toBeGreaterThan(0);
          if (item.ImageTags?.Primary) withPoster++;
          const source = item.MediaSources?.[0];
          expect(source?.Container).toBeTruthy();
          expect(source?.MediaStreams?.some((s) => s.Type === 'Video' && (s.Width ?? 0) > 0)).toBe(true);
          expect(source?.MediaStreams?.some((s) => s.Type === 'Audio' && (s.Channels ?? 0) > 0)).toBe(true);
        }
      }
      const inMovies = sim.control.itemIds('Movie', 10_000).filter((id) => sim.control.item(id)?.libraryId === movies.id);
      expect(found.sort()).toEqual(inMovies.sort());
      expect(withPoster).toBeGreaterThan(found.length / 2);
    });

    it('returns only items saved since a date (incremental sync)', async () => {
      const before = new Date(sim.control.clock.now());
      sim.control.advance(60_000);
      const [a, b] = sim.control.itemIds('Movie', 2) as [string, string];
      sim.control.updateItem(a, { name: 'Renamed for the test' });
      sim.control.updateItem(b, { name: 'Renamed too' });
      const { ids } = await collectIds(client, 1, { minDateLastSaved: before });
      expect(ids.sort()).toEqual([a, b].sort());
    });

    it('gets one item, and not_found for an unknown id', async () => {
      const id = sim.control.itemIds('Episode', 1)[0]!;
      const truth = sim.control.item(id)!;
      const item = await client.getItem(id);
      expect(item).toMatchObject({ Id: id, Name: truth.name, Type: 'Episode', SeriesId: truth.seriesId, SeasonId: truth.seasonId });
      expect(item.IndexNumber).toBe(truth.indexNumber);
      const error = await rejection(client.getItem(unknownId));
      expect(error.kind).toBe('not_found');
      expect(error.message).toContain(unknownId);
      expect((await rejection(client.getItem('../../System/Info'))).kind).toBe('invalid_request');
    });

    it('gets items by ids in chunks, skipping unknown ones', async () => {
      const ids = sim.control.itemIds('Audio', 5);
      const items = await client.getItemsByIds([...ids, unknownId, ids[0]!], { chunkSize: 2 });
      expect(items.map((i) => i.Id).sort()).toEqual([...ids].sort());
      for (const i of items) expect(i.Type).toBe('Audio');
    });

    it('lists seasons and episodes of a series', async () => {
      const seriesId = sim.control.itemIds('Series', 1)[0]!;
      const seasons = await client.getSeasons(seriesId);
      expect(seasons.length).toBeGreaterThan(0);
      for (const s of seasons) expect(s).toMatchObject({ Type: 'Season', SeriesId: seriesId });
      const all = await client.getEpisodes(seriesId);
      let sum = 0;
      for (const season of seasons) {
        const episodes = await client.getEpisodes(seriesId, season.Id);
        for (const e of episodes) expect(e).toMatchObject({ Type: 'Episode', SeriesId: seriesId, SeasonId: season.Id });
        sum += episodes.length;
      }
      expect(sum).toBe(all.length);
      expect(all.length).toBeGreaterThan(0);
      expect((await rejection(client.getSeasons(unknownId))).kind).toBe('not_found');
      expect((await rejection(client.getEpisodes(unknownId))).kind).toBe('not_found');
    });
  });

  describe('sessions', () => {
    it('shows a transcoding play with its item, play state and transcoding info', async () => {
      const admin = sim.control.users().find((u) => u.isAdministrator)!;
      const movieId = sim.control.itemIds('Movie', 1)[0]!;
      const play = sim.control.startPlay({
        userId: admin.id,
        itemId: movieId,
        client: flavor === 'jellyfin' ? 'jellyfin-web' : 'emby-web',
        method: 'Transcode',
        transcodeReasons: ['VideoCodecNotSupported', 'AudioCodecNotSupported'],
      });
      sim.control.advance(30_000);

      const playing = (await client.getSessions()).find((s) => s.Id === play.sessionId);
      expect(playing?.UserId).toBe(admin.id);
      expect(playing?.UserName).toBe(admin.name);
      expect(playing?.NowPlayingItem).toMatchObject({ Id: movieId, Type: 'Movie', Name: sim.control.item(movieId)!.name });
      expect(playing?.NowPlayingItem?.MediaStreams?.some((s) => s.Type === 'Video')).toBe(true);
      expect(playing?.PlayState).toMatchObject({ PlayMethod: 'Transcode', IsPaused: false, PositionTicks: 30 * 10_000_000 });
      expect(playing?.TranscodingInfo?.TranscodeReasons).toEqual(['VideoCodecNotSupported', 'AudioCodecNotSupported']);
      expect(playing?.TranscodingInfo?.IsVideoDirect).toBe(false);
      expect(playing?.TranscodingInfo?.VideoCodec).toBeTruthy();
      if (flavor === 'jellyfin') {
        expect(playing?.TranscodingInfo?.HardwareAccelerationType).toBeTruthy();
        expect(playing?.IsActive).toBe(true);
      } else {
        expect(playing?.InternalDeviceId).toBeTypeOf('number');
        expect(playing?.NowPlayingItem?.Id).toMatch(/^\d+$/);
      }

      sim.control.pause(play.playId);
      const paused = (await client.getSessions()).find((s) => s.Id === play.sessionId);
      expect(paused?.PlayState?.IsPaused).toBe(true);

      sim.control.stop(play.playId);
      const stopped = (await client.getSessions()).find((s) => s.Id === play.sessionId);
      expect(stopped).toBeDefined();
      expect(stopped?.NowPlayingItem).toBeUndefined();
      expect(stopped?.TranscodingInfo).toBeUndefined();
      expect(stopped?.PlayState?.PositionTicks).toBeUndefined();
    });

    it('filters on recent activity', async () => {
      const old = sim.control.connect({ client: 'kodi' });
      sim.control.advance(2_000_000);
      const fresh = sim.control.connect({ client: 'kodi' });
      const recent = await client.getSessions({ activeWithinSeconds: 960 });
      const ids = recent.map((s) => s.Id);
      expect(ids).toContain(fresh.sessionId);
      expect(ids).not.toContain(old.sessionId);
      expect((await client.getSessions()).map((s) => s.Id)).toContain(old.sessionId);
      // A session without a user: the server writes Guid.Empty, the client reports undefined.
      expect(recent.find((s) => s.Id === fresh.sessionId)?.UserId).toBeUndefined();
    });
  });

  describe('images', () => {
    it('streams an item image at the asked size', async () => {
      const id = sim.control.itemIds('Movie', 1)[0]!;
      const image = await client.fetchImage({
        kind: 'item',
        itemId: id,
        imageType: 'Primary',
        fillWidth: 120,
        fillHeight: 180,
        quality: 90,
      });
      expect(image.status).toBe(200);
      expect(image.contentType).toBe('image/png');
      const bytes = Buffer.from(await new Response(image.body).arrayBuffer());
      expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(bytes.readUInt32BE(16)).toBe(120);
      expect(bytes.readUInt32BE(20)).toBe(180);
      expect(image.contentLength).toBe(bytes.length);
    });

    it('streams a user avatar, not_found for a user without one', async () => {
      const users = sim.control.users();
      const withImage = users.find((u) => u.hasImage)!;
      const without = users.find((u) => !u.hasImage)!;
      const image = await client.fetchImage({ kind: 'user', userId: withImage.id, fillWidth: 64, fillHeight: 64 });
      expect(image.contentType).toBe('image/png');
      expect((await new Response(image.body).arrayBuffer()).byteLength).toBeGreaterThan(8);
      const error = await rejection(client.fetchImage({ kind: 'user', userId: without.id }));
      expect(error.kind).toBe('not_found');
      expect((await rejection(client.fetchImage({ kind: 'item', itemId: unknownId }))).kind).toBe('not_found');
    });
  });

  describe('Playback Reporting', () => {
    it('returns columns and string cells', async () => {
      const admin = sim.control.users().find((u) => u.isAdministrator)!;
      const itemId = sim.control.itemIds('Movie', 3)[2]!;
      const play = sim.control.startPlay({ userId: admin.id, itemId, method: 'DirectPlay' });
      sim.control.advance(120_000);
      sim.control.stop(play.playId);
      const result = await client.submitPlaybackReportingQuery(
        `SELECT rowid, ItemId, ItemType, PlayDuration FROM PlaybackActivity WHERE ItemId = '${itemId}' ORDER BY rowid`,
      );
      expect(result.columns).toEqual(['rowid', 'ItemId', 'ItemType', 'PlayDuration']);
      expect(result.message).toBe('');
      const last = playbackReportingRecords(result).at(-1);
      expect(last).toEqual({ rowid: String(play.playbackReportingRowId), ItemId: itemId, ItemType: 'Movie', PlayDuration: '120' });

      const named = await client.submitPlaybackReportingQuery(`SELECT UserId FROM PlaybackActivity WHERE ItemId = '${itemId}'`, {
        replaceUserId: true,
      });
      expect(named.columns).toEqual(['UserName']);
      expect(named.rows.at(-1)).toEqual([admin.name]);
    });

    it('reports an empty result, SQL errors and a missing plugin', async () => {
      const empty = await client.submitPlaybackReportingQuery("SELECT * FROM PlaybackActivity WHERE ItemId = 'none'");
      expect(empty.rows).toEqual([]);
      expect(empty.message).toMatch(/^Query executed, no data returned/);

      const failed = await rejection(client.submitPlaybackReportingQuery('SELECT * FROM NoSuchTable'));
      expect(failed.kind).toBe('query_failed');
      expect(failed.message).toContain('no such table: NoSuchTable');
      expect(failed.message).not.toContain('<');

      sim.control.setPluginEnabled(false);
      try {
        const missing = await rejection(client.submitPlaybackReportingQuery('SELECT 1'));
        expect(missing.kind).toBe('not_found');
        expect(missing.message).toContain('Playback Reporting plugin is not installed');
      } finally {
        sim.control.setPluginEnabled(true);
      }
    });
  });

  describe('faults injected by the simulator', () => {
    afterAll(async () => {
      await sim.control.clearFaults();
    });

    it('times out on latency longer than the timeout, after retrying', async () => {
      await sim.control.setFaults({ latencyMs: 400 });
      const slow = createMediaServerClient({
        kind: flavor,
        url: sim.url,
        apiKey: API_KEY,
        timeoutMs: 100,
        retries: 1,
        retryBaseDelayMs: 5,
      });
      const error = await rejection(slow.getSystemInfo());
      expect(error.kind).toBe('network');
      expect(error.message).toMatch(/timed out: no answer from 127\.0\.0\.1:\d+ within 100 ms/);
      expect(error.attempts).toBe(2);
      const patient = createMediaServerClient({ kind: flavor, url: sim.url, apiKey: API_KEY, timeoutMs: 2_000 });
      expect((await patient.getSystemInfo()).Id).toMatch(/^[0-9a-f]{32}$/);
      await sim.control.clearFaults();
    });

    it('rides out a 30 % error rate with retries', async () => {
      await sim.control.setFaults({ errorRate: 0.3 });
      const fragile = createMediaServerClient({ kind: flavor, url: sim.url, apiKey: API_KEY, retries: 0 });
      const robust = createMediaServerClient({
        kind: flavor,
        url: sim.url,
        apiKey: API_KEY,
        retries: 8,
        retryBaseDelayMs: 1,
        retryMaxDelayMs: 5,
      });
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => fragile.getUsers()));
      const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as MediaServerError);
      expect(failures.length).toBeGreaterThan(0);
      for (const f of failures) expect([f.kind, f.status, f.message.includes('Error processing request.')]).toEqual(['http', 500, true]);
      for (let i = 0; i < 20; i++) expect((await robust.getUsers()).length).toBe(sim.control.users().length);
      await sim.control.clearFaults();
    });

    it('reports a server that is down, and recovers when it is back', async () => {
      await sim.control.setFaults({ down: 'refused' });
      const quick = createMediaServerClient({
        kind: flavor,
        url: sim.url,
        apiKey: API_KEY,
        retries: 1,
        retryBaseDelayMs: 5,
        maxRetryAfterMs: 1_000,
      });
      const refused = await rejection(quick.getSessions());
      expect(refused.kind).toBe('network');
      expect(refused.message).toContain('connection refused');
      const probeError = await rejection(probeMediaServer(sim.url, API_KEY, { retries: 0 }));
      expect(probeError.kind).toBe('network');

      await sim.control.setFaults({ down: '503' });
      const unavailable = await rejection(quick.getSessions());
      expect(unavailable).toMatchObject({ kind: 'http', status: 503, attempts: 1 });
      expect(unavailable.message).toContain('Retry-After 5 s');

      await sim.control.setFaults({ down: 'refused' });
      const warnings: string[] = [];
      const patient = createMediaServerClient({
        kind: flavor,
        url: sim.url,
        apiKey: API_KEY,
        retries: 10,
        retryBaseDelayMs: 50,
        retryMaxDelayMs: 100,
        logger: pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _e, cb) => (warnings.push(chunk.toString()), cb()) })),
      });
      const pending = patient.getSessions();
      // Recovers after failed attempts: the server comes back once the client has retried at least once.
      await waitFor('a refused attempt', () => warnings.some((line) => line.includes('retrying')));
      await sim.control.clearFaults();
      expect(Array.isArray(await pending)).toBe(true);
    });
  });
});

describe('a small library', () => {
  it.each(['jellyfin', 'emby'] as const)('%s: iterates thousands of items without duplicates', async (flavor) => {
    const sim = await startSimulator({ flavor, scale: 'small', seed: 7, clock: 'virtual', startTime: START, apiKey: API_KEY });
    try {
      const client = createMediaServerClient({ kind: flavor, url: sim.url, apiKey: API_KEY });
      const counts = sim.control.counts();
      const all = await collectIds(client, 500);
      expect(all.ids.length).toBe(counts.items);
      expect(new Set(all.ids).size).toBe(counts.items);
      expect(counts.items).toBeGreaterThan(3000);
      const episodes = await collectIds(client, 333, { includeItemTypes: ['Episode'] });
      expect(episodes.ids.length).toBe(counts.episodes);
      expect(new Set(episodes.ids).size).toBe(counts.episodes);
    } finally {
      await sim.stop();
    }
  });
});
