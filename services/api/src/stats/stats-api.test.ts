import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRollupDifferences, openDatabase, recordPlays, type Database, type PlayToRecord } from '@reelstat/core';
import { testLogger } from '@reelstat/core/test-support/test-services.js';
import { startApiHarness, type ApiHarness, createAdmin, insertUnreachableServer } from '@reelstat/server/test-support/api-harness.js';

/**
 * Every statistics, history and detail call on a small hand-built history. Expected figures are worked out
 * by hand from the table below, never by the SQL under test.
 *
 *  play  user   item           library  client        method        hours ago  seconds
 *  P1    Alice  m1 Heat        movies   Jellyfin Web  DirectPlay     2         1000
 *  P2    Bob    m1 Heat        movies   Android       Transcode      3         2000
 *  P3    Alice  m2 Alien       movies   Jellyfin Web  DirectPlay     4          500
 *  P4    Alice  m2 Alien       movies   Jellyfin Web  DirectPlay     5          700
 *  P5    Carol  m3 Brazil (archived)    Roku          DirectStream   6          300   Carol is untracked
 *  P6    Bob    e1 Dark S1E1   shows    Android       DirectPlay     7         1200
 *  P7    Bob    e2 Dark S1E2   shows    Android       DirectPlay     8         1300
 *  P8    Alice  e3 Dark S2E1   shows    Jellyfin Web  Transcode      9         1400
 *  P9    Alice  a1 Song        music    Finamp        DirectPlay    10          200
 *  P10   Alice  m1 Heat        movies   Jellyfin Web  DirectPlay   40 days      999
 */
describe('statistics, history and detail API', () => {
  let harness: ApiHarness;
  let db: Database;
  let token: string;
  const serverId = randomUUID();
  const now = Date.now();
  const hoursAgo = (hours: number) => new Date(now - hours * 3_600_000);

  const post = async (path: string, body: unknown) => harness.call('POST', path, { body, token });
  const get = async (path: string) => harness.call('GET', path, { token });
  const ok = async <T>(promise: Promise<{ status: number; body: unknown }>): Promise<T> => {
    const answer = await promise;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as T;
  };

  beforeAll(async () => {
    harness = await startApiHarness();
    token = await createAdmin(harness);
    db = openDatabase(harness.database.url, testLogger);
    await insertUnreachableServer(db, serverId);
    await db.query(
      `INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'movies', 'Movies', 'movies'), ($1, 'shows', 'Shows', 'tvshows'),
         ($1, 'music', 'Music', 'music')`,
      [serverId],
    );
    await db.query(
      `INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, 'u1', 'Alice', true), ($1, 'u2', 'Bob', true), ($1, 'u3', 'Carol', false)`,
      [serverId],
    );
    await db.query(
      `INSERT INTO items (server_id, id, library_id, type, name, series_id, series_name, season_id, season_name, index_number, parent_index_number,
         run_time_ticks, size, path, date_created, archived) VALUES
       ($1, 'm1', 'movies', 'Movie', 'Heat', NULL, NULL, NULL, NULL, NULL, NULL, 60000000000, 4000, '/m/heat.mkv', now() - interval '9 day', false),
       ($1, 'm2', 'movies', 'Movie', 'Alien', NULL, NULL, NULL, NULL, NULL, NULL, 30000000000, 3000, '/m/alien.mkv', now() - interval '8 day', false),
       ($1, 'm3', 'movies', 'Movie', 'Brazil', NULL, NULL, NULL, NULL, NULL, NULL, 10000000000, 1000, '/m/brazil.mkv', now() - interval '7 day', true),
       ($1, 's1', 'shows', 'Series', 'Dark', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now() - interval '6 day', false),
       ($1, 's1-1', 'shows', 'Season', 'Season 1', 's1', 'Dark', NULL, NULL, 1, NULL, NULL, NULL, NULL, now() - interval '6 day', false),
       ($1, 's1-2', 'shows', 'Season', 'Season 2', 's1', 'Dark', NULL, NULL, 2, NULL, NULL, NULL, NULL, now() - interval '6 day', false),
       ($1, 'e1', 'shows', 'Episode', 'Secrets', 's1', 'Dark', 's1-1', 'Season 1', 1, 1, 30000000000, 500, '/s/e1.mkv', now() - interval '3 day', false),
       ($1, 'e2', 'shows', 'Episode', 'Lies', 's1', 'Dark', 's1-1', 'Season 1', 2, 1, 30000000000, 500, '/s/e2.mkv', now() - interval '2 day', false),
       ($1, 'e3', 'shows', 'Episode', 'Ghosts', 's1', 'Dark', 's1-2', 'Season 2', 1, 2, 30000000000, 500, '/s/e3.mkv', now() - interval '1 day', false),
       ($1, 'a1', 'music', 'Audio', 'Song', NULL, NULL, NULL, NULL, 3, 1, 2000000000, 10, '/a/song.flac', now() - interval '10 day', false)`,
      [serverId],
    );
    // m1: the server sent an image tag but no blurhash (Emby never does); m2: both.
    await db.query(
      `UPDATE items SET primary_image_tag = 'tag-' || id, primary_image_hash = CASE WHEN id = 'm2' THEN 'LKO2?U%2Tw=w' END
       WHERE server_id = $1 AND id IN ('m1', 'm2')`,
      [serverId],
    );
    await db.query(
      `INSERT INTO item_genres (server_id, item_id, genre) VALUES ($1, 'm1', 'Action'), ($1, 'm1', 'Crime'), ($1, 'm2', 'Horror'), ($1, 'm2', 'Science Fiction'),
         ($1, 's1', 'Drama')`,
      [serverId],
    );
    const user = { Alice: ['u1', 'Alice'], Bob: ['u2', 'Bob'], Carol: ['u3', 'Carol'] } as const;
    const item = {
      m1: { itemId: 'm1', itemName: 'Heat', itemType: 'Movie', libraryId: 'movies' },
      m2: { itemId: 'm2', itemName: 'Alien', itemType: 'Movie', libraryId: 'movies' },
      m3: { itemId: 'm3', itemName: 'Brazil', itemType: 'Movie', libraryId: 'movies' },
      e1: {
        itemId: 'e1',
        itemName: 'Secrets',
        itemType: 'Episode',
        libraryId: 'shows',
        seriesId: 's1',
        seriesName: 'Dark',
        seasonId: 's1-1',
        seasonNumber: 1,
        episodeNumber: 1,
      },
      e2: {
        itemId: 'e2',
        itemName: 'Lies',
        itemType: 'Episode',
        libraryId: 'shows',
        seriesId: 's1',
        seriesName: 'Dark',
        seasonId: 's1-1',
        seasonNumber: 1,
        episodeNumber: 2,
      },
      e3: {
        itemId: 'e3',
        itemName: 'Ghosts',
        itemType: 'Episode',
        libraryId: 'shows',
        seriesId: 's1',
        seriesName: 'Dark',
        seasonId: 's1-2',
        seasonNumber: 2,
        episodeNumber: 1,
      },
      a1: { itemId: 'a1', itemName: 'Song', itemType: 'Audio', libraryId: 'music' },
    };
    const p = (
      key: string,
      who: keyof typeof user,
      what: keyof typeof item,
      client: string,
      playMethod: PlayToRecord['playMethod'],
      at: Date,
      playedSeconds: number,
    ): PlayToRecord => ({
      serverId,
      playKey: key,
      source: 'monitor',
      userId: user[who][0],
      userName: user[who][1],
      ...item[what],
      client,
      deviceName: `${client} device`,
      remoteEndPoint: '203.0.113.7',
      playMethod,
      startedAt: at,
      playedSeconds,
    });
    await recordPlays(db, [
      p('P1', 'Alice', 'm1', 'Jellyfin Web', 'DirectPlay', hoursAgo(2), 1000),
      p('P2', 'Bob', 'm1', 'Android', 'Transcode', hoursAgo(3), 2000),
      p('P3', 'Alice', 'm2', 'Jellyfin Web', 'DirectPlay', hoursAgo(4), 500),
      p('P4', 'Alice', 'm2', 'Jellyfin Web', 'DirectPlay', hoursAgo(5), 700),
      p('P5', 'Carol', 'm3', 'Roku', 'DirectStream', hoursAgo(6), 300),
      p('P6', 'Bob', 'e1', 'Android', 'DirectPlay', hoursAgo(7), 1200),
      p('P7', 'Bob', 'e2', 'Android', 'DirectPlay', hoursAgo(8), 1300),
      p('P8', 'Alice', 'e3', 'Jellyfin Web', 'Transcode', hoursAgo(9), 1400),
      p('P9', 'Alice', 'a1', 'Finamp', 'DirectPlay', hoursAgo(10), 200),
      p('P10', 'Alice', 'm1', 'Jellyfin Web', 'DirectPlay', hoursAgo(40 * 24), 999),
    ]);
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await harness.stop();
  });

  const pick = <T extends object, K extends keyof T>(rows: T[], ...keys: K[]) =>
    rows.map((row) => Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<T, K>);

  describe('stat cards', () => {
    it('ranks movies by plays, ties broken by watched seconds, archived items flagged', async () => {
      const rows = await ok<Array<{ Id: string; Name: string; Plays: number; total_playback_duration: number; archived: boolean }>>(
        post('/stats/getMostViewedByType', { days: 7, type: 'Movie' }),
      );
      expect(pick(rows, 'Id', 'Name', 'Plays', 'total_playback_duration', 'archived')).toEqual([
        { Id: 'm1', Name: 'Heat', Plays: 2, total_playback_duration: 3000, archived: false },
        { Id: 'm2', Name: 'Alien', Plays: 2, total_playback_duration: 1200, archived: false },
        { Id: 'm3', Name: 'Brazil', Plays: 1, total_playback_duration: 300, archived: true },
      ]);
      const wider = await ok<Array<{ Id: string; Plays: number }>>(post('/stats/getMostViewedByType', { days: 60, type: 'Movie' }));
      expect(pick(wider, 'Id', 'Plays')).toEqual([
        { Id: 'm1', Plays: 3 },
        { Id: 'm2', Plays: 2 },
        { Id: 'm3', Plays: 1 },
      ]);
    });

    it('counts series by their episodes and tracks by themselves', async () => {
      expect(
        pick(
          await ok<Array<{ Id: string; Name: string; Plays: number }>>(post('/stats/getMostViewedByType', { days: 7, type: 'Series' })),
          'Id',
          'Name',
          'Plays',
        ),
      ).toEqual([{ Id: 's1', Name: 'Dark', Plays: 3 }]);
      expect(
        pick(await ok<Array<{ Id: string; Plays: number }>>(post('/stats/getMostViewedByType', { days: 7, type: 'Audio' })), 'Id', 'Plays'),
      ).toEqual([{ Id: 'a1', Plays: 1 }]);
    });

    it('ranks by distinct viewers for the popular cards', async () => {
      const movies = await ok<Array<{ Id: string; unique_viewers: number; Plays: number }>>(
        post('/stats/getMostPopularByType', { days: 7, type: 'Movie' }),
      );
      expect(pick(movies, 'Id', 'unique_viewers', 'Plays')).toEqual([
        { Id: 'm1', unique_viewers: 2, Plays: 2 },
        { Id: 'm2', unique_viewers: 1, Plays: 2 },
        { Id: 'm3', unique_viewers: 1, Plays: 1 },
      ]);
      const series = await ok<Array<{ Id: string; unique_viewers: number }>>(
        post('/stats/getMostPopularByType', { days: 7, type: 'Series' }),
      );
      expect(pick(series, 'Id', 'unique_viewers')).toEqual([{ Id: 's1', unique_viewers: 2 }]);
    });

    it('ranks libraries, clients, users and playback methods', async () => {
      expect(
        pick(
          await ok<Array<{ Id: string; Plays: number; total_playback_duration: number; CollectionType: string }>>(
            post('/stats/getMostViewedLibraries', { days: 7 }),
          ),
          'Id',
          'Plays',
          'total_playback_duration',
          'CollectionType',
        ),
      ).toEqual([
        { Id: 'movies', Plays: 5, total_playback_duration: 4500, CollectionType: 'movies' },
        { Id: 'shows', Plays: 3, total_playback_duration: 3900, CollectionType: 'tvshows' },
        { Id: 'music', Plays: 1, total_playback_duration: 200, CollectionType: 'music' },
      ]);
      expect(
        pick(await ok<Array<{ Client: string; Plays: number }>>(post('/stats/getMostUsedClient', { days: 7 })), 'Client', 'Plays'),
      ).toEqual([
        { Client: 'Jellyfin Web', Plays: 4 },
        { Client: 'Android', Plays: 3 },
        { Client: 'Roku', Plays: 1 },
        { Client: 'Finamp', Plays: 1 },
      ]);
      // Untracked users stop being recorded; what they already watched still counts (Carol).
      expect(
        pick(
          await ok<Array<{ UserId: string; Name: string; Plays: number }>>(post('/stats/getMostActiveUsers', { days: 7 })),
          'UserId',
          'Name',
          'Plays',
        ),
      ).toEqual([
        { UserId: 'u1', Name: 'Alice', Plays: 5 },
        { UserId: 'u2', Name: 'Bob', Plays: 3 },
        { UserId: 'u3', Name: 'Carol', Plays: 1 },
      ]);
      expect(
        pick(await ok<Array<{ Name: string; Count: number }>>(post('/stats/getPlaybackMethodStats', { days: 7 })), 'Name', 'Count'),
      ).toEqual([
        { Name: 'DirectPlay', Count: 6 },
        { Name: 'Transcode', Count: 2 },
        { Name: 'DirectStream', Count: 1 },
      ]);
    });
  });

  describe('scoped statistics', () => {
    it('answers global user, library and item stats over hours and all time', async () => {
      expect(await ok(post('/stats/getGlobalUserStats', { hours: 24, userid: 'u1' }))).toEqual({
        Plays: 5,
        total_playback_duration: 3800,
        UserId: 'u1',
      });
      expect(await ok(post('/stats/getGlobalUserStats', { hours: 9999 * 24, userid: 'u1' }))).toEqual({
        Plays: 6,
        total_playback_duration: 4799,
        UserId: 'u1',
      });
      expect(await ok(post('/stats/getGlobalLibraryStats', { hours: 24, libraryid: 'movies' }))).toEqual({
        Plays: 5,
        total_playback_duration: 4500,
        LibraryId: 'movies',
      });
      expect(await ok(post('/stats/getGlobalLibraryStats', { hours: 9999 * 24, libraryid: 'movies' }))).toEqual({
        Plays: 6,
        total_playback_duration: 5499,
        LibraryId: 'movies',
      });
      expect(await ok(post('/stats/getGlobalItemStats', { hours: 24, itemid: 's1' }))).toEqual({
        Plays: 3,
        total_playback_duration: 3900,
        ItemId: 's1',
      });
      expect(await ok(post('/stats/getGlobalItemStats', { hours: 9999 * 24, itemid: 's1-1' }))).toEqual({
        Plays: 2,
        total_playback_duration: 2500,
        ItemId: 's1-1',
      });
      expect(await ok(post('/stats/getGlobalItemStats', { hours: 1, itemid: 'm1' }))).toEqual({
        Plays: 0,
        total_playback_duration: 0,
        ItemId: 'm1',
      });
    });

    it('lists genres of a user (series genres for episodes) and of a library', async () => {
      // Alice: Heat twice (1000 + 999, Action and Crime), Alien twice (1200, Horror and Science Fiction), Dark S2E1 (1400, Drama).
      expect((await ok<{ results: unknown[] }>(get('/stats/getGenreUserStats?userid=u1'))).results).toEqual([
        { genre: 'Action', duration: 1999, plays: 2 },
        { genre: 'Crime', duration: 1999, plays: 2 },
        { genre: 'Drama', duration: 1400, plays: 1 },
        { genre: 'Horror', duration: 1200, plays: 2 },
        { genre: 'Science Fiction', duration: 1200, plays: 2 },
      ]);
      // Movies library, all time: Heat 3 plays 3999 s, Alien 2 plays 1200 s.
      expect((await ok<{ results: unknown[] }>(get('/stats/getGenreLibraryStats?libraryid=movies'))).results).toEqual([
        { genre: 'Action', duration: 3999, plays: 3 },
        { genre: 'Crime', duration: 3999, plays: 3 },
        { genre: 'Horror', duration: 1200, plays: 2 },
        { genre: 'Science Fiction', duration: 1200, plays: 2 },
      ]);
    });

    it('shows the last plays of a user and of a library', async () => {
      const alice = await ok<Array<{ Id: string; EpisodeId: string | null; LastPlayed: { hours: number } }>>(
        post('/stats/getUserLastPlayed', { userid: 'u1' }),
      );
      expect(alice.map((row) => [row.Id, row.EpisodeId, row.LastPlayed.hours])).toEqual([
        ['m1', null, 2],
        ['m2', null, 4],
        ['s1', 'e3', 9],
        ['a1', null, 10],
      ]);
      const shows = await ok<Array<{ Id: string; EpisodeId: string; UserName: string }>>(
        post('/stats/getLibraryLastPlayed', { libraryid: 'shows' }),
      );
      expect(pick(shows, 'EpisodeId', 'UserName')).toEqual([
        { EpisodeId: 'e1', UserName: 'Bob' },
        { EpisodeId: 'e2', UserName: 'Bob' },
        { EpisodeId: 'e3', UserName: 'Alice' },
      ]);
    });

    it('fills the users table with all-time totals, last play and the tracked flag', async () => {
      const rows = await ok<Array<Record<string, unknown>>>(get('/stats/getAllUserActivity'));
      expect(pick(rows, 'UserId', 'Tracked', 'TotalPlays', 'TotalWatchTime', 'LastWatched', 'LastClient')).toEqual([
        { UserId: 'u1', Tracked: true, TotalPlays: 6, TotalWatchTime: 4799, LastWatched: 'Heat', LastClient: 'Jellyfin Web' },
        { UserId: 'u2', Tracked: true, TotalPlays: 3, TotalWatchTime: 4500, LastWatched: 'Heat', LastClient: 'Android' },
        { UserId: 'u3', Tracked: false, TotalPlays: 1, TotalWatchTime: 300, LastWatched: 'Brazil', LastClient: 'Roku' },
      ]);
      expect((rows[0]!.LastSeen as { hours: number }).hours).toBe(2);
    });

    it('describes libraries: overview, metadata, cards and play methods', async () => {
      expect(await ok(get('/stats/getLibraryOverview'))).toEqual([
        { Id: 'movies', Name: 'Movies', CollectionType: 'movies', Library_Count: 2, Season_Count: 0, Episode_Count: 0 },
        { Id: 'music', Name: 'Music', CollectionType: 'music', Library_Count: 1, Season_Count: 0, Episode_Count: 0 },
        { Id: 'shows', Name: 'Shows', CollectionType: 'tvshows', Library_Count: 1, Season_Count: 2, Episode_Count: 3 },
      ]);
      expect(await ok(get('/stats/getLibraryMetadata'))).toEqual([
        { Id: 'movies', Name: 'Movies', files: 2, Size: 7000 },
        { Id: 'music', Name: 'Music', files: 1, Size: 10 },
        { Id: 'shows', Name: 'Shows', files: 3, Size: 1500 },
      ]);
      const cards = await ok<Array<Record<string, unknown>>>(get('/stats/getLibraryCardStats'));
      expect(pick(cards, 'Id', 'Plays', 'total_playback_duration', 'total_play_time', 'ItemName')).toEqual([
        // total_play_time is the content's runtime in ticks (9000 s and 200 s); total_playback_duration is seconds played.
        { Id: 'movies', Plays: 6, total_playback_duration: 5499, total_play_time: 90_000_000_000, ItemName: 'Heat' },
        { Id: 'music', Plays: 1, total_playback_duration: 200, total_play_time: 2_000_000_000, ItemName: 'Song' },
        { Id: 'shows', Plays: 3, total_playback_duration: 3900, total_play_time: 90_000_000_000, ItemName: 'Dark - Secrets' },
      ]);
      expect(await ok(post('/stats/getLibraryItemsPlayMethodStats', { hours: 24, libraryid: 'movies' }))).toEqual({
        stats: [
          { Key: 'DirectPlay', Count: 3, Duration: 2200 },
          { Key: 'DirectStream', Count: 1, Duration: 300 },
          { Key: 'Transcode', Count: 1, Duration: 2000 },
        ],
        types: ['DirectPlay', 'DirectStream', 'Transcode'],
      });
      const items = await ok<Array<{ Id: string; times_played: number; total_play_time: number }>>(
        post('/stats/getLibraryItemsWithStats', { libraryid: 'shows' }),
      );
      expect(pick(items, 'Id', 'times_played', 'total_play_time')).toEqual([{ Id: 's1', times_played: 3, total_play_time: 3900 }]);
      // With paging in the query: SPEC's paged result (the incumbent's client asks for it this way).
      type ItemsPage = { results: Array<{ Id: string }>; pages: number; current_page: number; size: number; sort: string; desc: boolean };
      const paged = await ok<ItemsPage>(
        post('/stats/getLibraryItemsWithStats?size=2&page=1&sort=Title&desc=false', { libraryid: 'movies' }),
      );
      expect({ ...paged, results: paged.results.map((row) => row.Id) }).toEqual({
        results: ['m2', 'm3'],
        pages: 2,
        current_page: 1,
        size: 2,
        search: '',
        sort: 'Title',
        desc: false,
      });
      const second = await ok<ItemsPage>(
        post('/stats/getLibraryItemsWithStats?size=2&page=2&sort=Title&desc=false', { libraryid: 'movies' }),
      );
      expect(second.results.map((row) => row.Id)).toEqual(['m1']);
      const byViews = await ok<ItemsPage>(post('/stats/getLibraryItemsWithStats?sort=times_played', { libraryid: 'movies' }));
      expect(byViews.results.map((row) => row.Id)).toEqual(['m1', 'm2', 'm3']);
      const searched = await ok<ItemsPage>(post('/stats/getLibraryItemsWithStats?search=HEA', { libraryid: 'movies' }));
      expect(searched.results.map((row) => row.Id)).toEqual(['m1']);
      expect((await post('/stats/getLibraryItemsWithStats?sort=Evil', { libraryid: 'movies' })).status).toBe(400);
    });

    it('charts views over time in the requested zone', async () => {
      const chart = await ok<{ stats: Array<Record<string, { count: number; duration: number }> & { Key: string }>; libraries: unknown[] }>(
        get('/stats/getViewsByHour?days=7&tz=UTC'),
      );
      expect(chart.libraries).toEqual([
        { Id: 'movies', Name: 'Movies' },
        { Id: 'music', Name: 'Music' },
        { Id: 'shows', Name: 'Shows' },
      ]);
      const total = (library: string) => chart.stats.reduce((sum, row) => sum + row[library]!.count, 0);
      // Keyed by library Name, as the incumbent's charts read them.
      expect([total('Movies'), total('Shows'), total('Music')]).toEqual([5, 3, 1]);
      expect(Object.keys(chart.stats[0]!).sort()).toEqual(['Key', 'Movies', 'Music', 'Shows']);
      const p1Hour = String(hoursAgo(2).getUTCHours()).padStart(2, '0');
      expect(chart.stats.find((row) => row.Key === p1Hour)!.Movies!.count).toBeGreaterThanOrEqual(1);
    });
  });

  describe('history', () => {
    type Page = {
      results: Array<{
        Id: number;
        UserName: string;
        NowPlayingItemName: string;
        TotalPlays: number;
        PlaybackDuration: number;
        results: unknown[];
      }>;
      pages: number;
      total: number;
    };
    const names = (page: Page) => page.results.map((row) => `${row.NowPlayingItemName}×${row.TotalPlays}`);

    it('pages newest first and folds consecutive plays of one item by one user', async () => {
      const page = await ok<Page>(get('/api/getHistory'));
      expect(page.total).toBe(10);
      expect(page.pages).toBe(1);
      expect(names(page)).toEqual(['Heat×1', 'Heat×1', 'Alien×2', 'Brazil×1', 'Secrets×1', 'Lies×1', 'Ghosts×1', 'Song×1', 'Heat×1']);
      const alien = page.results[2]!;
      expect(alien.PlaybackDuration).toBe(1200);
      expect(alien.results).toHaveLength(2);
      const second = await ok<Page>(get('/api/getHistory?size=25&page=2'));
      expect(second.results).toEqual([]);
    });

    it('sorts, searches and filters', async () => {
      expect(names(await ok<Page>(get('/api/getHistory?sort=PlaybackDuration&desc=false&size=10')))[0]).toBe('Song×1');
      const android = await ok<Page>(get('/api/getHistory?search=ANDROID'));
      expect([android.total, names(android)]).toEqual([3, ['Heat×1', 'Secrets×1', 'Lies×1']]);
      const transcodes = await ok<Page>(
        get(`/api/getHistory?filters=${encodeURIComponent(JSON.stringify([{ field: 'PlayMethod', value: 'Transcode' }]))}`),
      );
      expect(names(transcodes)).toEqual(['Heat×1', 'Ghosts×1']);
      const shows = await ok<Page>(
        get(`/api/getHistory?filters=${encodeURIComponent(JSON.stringify([{ field: 'ParentId', value: ['shows'] }]))}`),
      );
      expect(names(shows)).toEqual(['Secrets×1', 'Lies×1', 'Ghosts×1']);
      // The incumbent's form: a comma-separated `in`.
      const showsAndMusic = await ok<Page>(
        get(`/api/getHistory?filters=${encodeURIComponent(JSON.stringify([{ field: 'ParentId', in: 'shows, music' }]))}`),
      );
      expect(names(showsAndMusic)).toEqual(['Secrets×1', 'Lies×1', 'Ghosts×1', 'Song×1']);
      const bobOrCarol = await ok<Page>(
        get(`/api/getHistory?filters=${encodeURIComponent(JSON.stringify([{ field: 'UserId', in: 'u2,u3' }]))}`),
      );
      expect(bobOrCarol.total).toBe(4);
      const from = hoursAgo(4.5).toISOString();
      const recent = await ok<Page>(
        get(`/api/getHistory?filters=${encodeURIComponent(JSON.stringify([{ field: 'ActivityDateInserted', min: from }]))}`),
      );
      expect(names(recent)).toEqual(['Heat×1', 'Heat×1', 'Alien×1']);
      const paged = await ok<Page>(get('/api/getHistory?size=10&page=1&search=jellyfin'));
      expect(paged.total).toBe(5);
    });

    it('scopes history to a user, a library and an item (a series includes its episodes)', async () => {
      expect((await ok<Page>(harness.call('POST', '/api/getUserHistory', { body: { userid: 'u2' }, token }))).total).toBe(3);
      expect((await ok<Page>(harness.call('POST', '/api/getLibraryHistory?size=25', { body: { libraryid: 'movies' }, token }))).total).toBe(
        6,
      );
      const series = await ok<Page>(harness.call('POST', '/api/getItemHistory', { body: { itemid: 's1' }, token }));
      expect(names(series)).toEqual(['Secrets×1', 'Lies×1', 'Ghosts×1']);
    });
  });

  describe('details', () => {
    it('answers user, library, item, seasons and episodes', async () => {
      expect(await ok(post('/api/getUserDetails', { userid: 'u3' }))).toMatchObject({ UserId: 'u3', UserName: 'Carol', Tracked: false });
      expect(await ok(post('/api/getLibrary', { libraryid: 'shows' }))).toMatchObject({
        Id: 'shows',
        Plays: 3,
        Season_Count: 2,
        Episode_Count: 3,
      });
      const [series] = await ok<Array<Record<string, unknown>>>(post('/api/getItemDetails', { Id: 's1' }));
      expect(series).toMatchObject({ Id: 's1', Type: 'Series', times_played: 3, total_play_time: 3900, Episodes: 3, LibraryName: 'Shows' });
      const missing = await post('/api/getItemDetails', { Id: 'nothing' });
      expect([missing.status, (missing.body as { message: string }).message]).toEqual([404, 'Item not found']);
      expect(
        pick(
          await ok<Array<{ Id: string; Episodes: number; times_played: number }>>(post('/api/getSeasons', { Id: 's1' })),
          'Id',
          'Episodes',
          'times_played',
        ),
      ).toEqual([
        { Id: 's1-1', Episodes: 2, times_played: 2 },
        { Id: 's1-2', Episodes: 1, times_played: 1 },
      ]);
      expect((await ok<Array<{ Id: string }>>(post('/api/getEpisodes', { Id: 's1-1' }))).map((row) => row.Id)).toEqual(['e1', 'e2']);
    });

    it('lists recently added: one Episode row per new season group, no Series row beside its episodes, tracks without S/E', async () => {
      type Recent = { Id: string; Type: string; SeriesName: string | null; SeasonNumber: number | null; EpisodeNumber: number | null };
      const grouped = await ok<Array<Recent & { NewEpisodeCount: number | null; PrimaryImageHash: string | null }>>(
        get('/api/getRecentlyAdded?GroupResults=true'),
      );
      expect(pick(grouped, 'Id', 'Type', 'SeriesName', 'SeasonNumber', 'EpisodeNumber', 'NewEpisodeCount', 'PrimaryImageHash')).toEqual([
        { Id: 'e3', Type: 'Episode', SeriesName: 'Dark', SeasonNumber: 2, EpisodeNumber: 1, NewEpisodeCount: 1, PrimaryImageHash: null },
        { Id: 'e2', Type: 'Episode', SeriesName: 'Dark', SeasonNumber: 1, EpisodeNumber: null, NewEpisodeCount: 2, PrimaryImageHash: null },
        {
          Id: 'm2',
          Type: 'Movie',
          SeriesName: null,
          SeasonNumber: null,
          EpisodeNumber: null,
          NewEpisodeCount: null,
          PrimaryImageHash: 'LKO2?U%2Tw=w',
        },
        {
          Id: 'm1',
          Type: 'Movie',
          SeriesName: null,
          SeasonNumber: null,
          EpisodeNumber: null,
          NewEpisodeCount: null,
          PrimaryImageHash: null,
        },
        {
          Id: 'a1',
          Type: 'Audio',
          SeriesName: null,
          SeasonNumber: null,
          EpisodeNumber: null,
          NewEpisodeCount: null,
          PrimaryImageHash: null,
        },
      ]);
      const flat = await ok<Recent[]>(get('/api/getRecentlyAdded?GroupResults=false'));
      expect(pick(flat, 'Id', 'SeasonNumber', 'EpisodeNumber')).toEqual([
        { Id: 'e3', SeasonNumber: 2, EpisodeNumber: 1 },
        { Id: 'e2', SeasonNumber: 1, EpisodeNumber: 2 },
        { Id: 'e1', SeasonNumber: 1, EpisodeNumber: 1 },
        { Id: 'm2', SeasonNumber: null, EpisodeNumber: null },
        { Id: 'm1', SeasonNumber: null, EpisodeNumber: null },
        { Id: 'a1', SeasonNumber: null, EpisodeNumber: null },
      ]);
    });

    it('answers PrimaryImageHash null where the server sent no blurhash, never the image tag', async () => {
      const [heat] = await ok<Array<{ PrimaryImageHash: string | null; ImageTags: unknown }>>(post('/api/getItemDetails', { Id: 'm1' }));
      expect(heat!.PrimaryImageHash).toBeNull();
      const [alien] = await ok<Array<{ PrimaryImageHash: string | null }>>(post('/api/getItemDetails', { Id: 'm2' }));
      expect(alien!.PrimaryImageHash).toBe('LKO2?U%2Tw=w');
      const cards = await ok<Array<{ Id: string; PrimaryImageHash: string | null }>>(
        post('/stats/getMostViewedByType', { days: 7, type: 'Movie' }),
      );
      expect(pick(cards, 'Id', 'PrimaryImageHash').filter((row) => row.Id !== 'm3')).toEqual([
        { Id: 'm1', PrimaryImageHash: null },
        { Id: 'm2', PrimaryImageHash: 'LKO2?U%2Tw=w' },
      ]);
      const lastPlayed = await ok<Array<{ Id: string; PrimaryImageHash: string | null }>>(
        post('/stats/getUserLastPlayed', { userid: 'u1' }),
      );
      expect(lastPlayed.filter((row) => row.Id === 'm1').map((row) => row.PrimaryImageHash)).toEqual([null]);
    });

    it('builds the timeline, merging consecutive seasons of a show', async () => {
      const bob = await ok<Array<Record<string, unknown>>>(
        post('/api/getActivityTimeLine', { userId: 'u2', libraries: ['movies', 'shows'] }),
      );
      expect(pick(bob, 'Title', 'SeasonName', 'EpisodeCount', 'MediaType')).toEqual([
        { Title: 'Heat', SeasonName: null, EpisodeCount: null, MediaType: 'Movie' },
        { Title: 'Dark', SeasonName: 'Season 1', EpisodeCount: 2, MediaType: 'Series' },
      ]);
      // Alice, oldest to newest: Heat (40 days ago), Dark S2E1, Alien twice, Heat; her track is in another library.
      const alice = await ok<Array<Record<string, unknown>>>(
        post('/api/getActivityTimeLine', { userId: 'u1', libraries: ['movies', 'shows'] }),
      );
      expect(pick(alice, 'Title', 'SeasonName', 'EpisodeCount', 'NowPlayingItemId')).toEqual([
        { Title: 'Heat', SeasonName: null, EpisodeCount: null, NowPlayingItemId: 'm1' },
        { Title: 'Alien', SeasonName: null, EpisodeCount: null, NowPlayingItemId: 'm2' },
        { Title: 'Dark', SeasonName: 'Season 2', EpisodeCount: 1, NowPlayingItemId: 's1' },
        { Title: 'Heat', SeasonName: null, EpisodeCount: null, NowPlayingItemId: 'm1' },
      ]);
      expect(alice[1]).toMatchObject({ FirstActivityDate: hoursAgo(5).toISOString(), LastActivityDate: hoursAgo(4).toISOString() });
    });
  });

  describe('bad input', () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/stats/getMostViewedByType', { days: 'abc', type: 'Movie' }, 'body.days'],
      ['POST', '/stats/getMostViewedByType', { days: 7, type: 'Book' }, 'body.type'],
      ['POST', '/stats/getMostViewedLibraries', { days: -1 }, 'body.days'],
      ['POST', '/stats/getMostUsedClient', { days: 7, tz: 'Mars/Phobos' }, 'body.tz'],
      ['POST', '/stats/getGlobalUserStats', { hours: 0, userid: 'u1' }, 'body.hours'],
      ['POST', '/stats/getUserLastPlayed', { userid: '../etc/passwd' }, 'body.userid'],
      ['GET', '/stats/getViewsOverTime?days=ten', undefined, 'query.days'],
      ['GET', '/api/getHistory?size=7', undefined, 'query.size'],
      ['GET', '/api/getHistory?size=100000', undefined, 'query.size'],
      ['GET', '/api/getHistory?page=0', undefined, 'query.page'],
      ['GET', '/api/getHistory?page=-3', undefined, 'query.page'],
      ['GET', '/api/getHistory?sort=started_at;DROP%20TABLE%20items', undefined, 'query.sort'],
      ['GET', '/api/getHistory?filters=not-json', undefined, 'query.filters'],
      ['GET', `/api/getHistory?search=${'a'.repeat(201)}`, undefined, 'query.search'],
      ['POST', `/api/getUserHistory?search=${'a'.repeat(201)}`, { userid: 'u1' }, 'query.search'],
      ['GET', `/api/getHistory?filters=${encodeURIComponent('[{"field":"Evil","value":1}]')}`, undefined, 'query.filters'],
      ['POST', '/api/deletePlaybackActivity', { ids: ['1 OR 1=1'] }, 'body.ids'],
      ['POST', '/api/getActivityTimeLine', { userId: 'u1', libraries: [] }, 'body.libraries'],
      ['DELETE', '/api/item/purge', { id: 'm1', withActivity: 'yes' }, 'body.withActivity'],
    ];
    it.each(cases)('%s %s → 400 naming the field', async (method, path, body, field) => {
      const answer = await harness.call(method, path, { body, token });
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toContain(field);
    });

    it('takes any search text up to 200 characters as plain text (wildcards, quotes, SQL) and loses nothing', async () => {
      type Page = { total: number; total_exact: boolean; search: string };
      const before = await ok<Page>(get('/api/getHistory'));
      for (const search of ["'; DROP TABLE playback_history; --", '%', '_', '\\', '%%%%', 'a'.repeat(200), '   ']) {
        const answer = await ok<Page>(get(`/api/getHistory?search=${encodeURIComponent(search)}`));
        expect(answer.search, search).toBe(search);
        expect(answer.total_exact).toBe(true);
        expect(answer.total, search).toBe(search.trim() ? 0 : before.total);
      }
      expect((await ok<Page>(get('/api/getHistory'))).total).toBe(before.total);
    });

    it('needs credentials', async () => {
      expect((await harness.call('POST', '/stats/getMostActiveUsers', { body: { days: 7 } })).status).toBe(401);
      expect((await harness.call('GET', '/api/getHistory')).status).toBe(401);
    });
  });

  describe('deleting and purging keep statistics exact', () => {
    it('deletes selected plays', async () => {
      const [p3] = await db.query<{ id: number }>(`SELECT id FROM playback_history WHERE play_key = 'P3'`);
      expect(await ok(post('/api/deletePlaybackActivity', { ids: [p3!.id] }))).toEqual({ message: 'Deleted 1 play', deleted: 1 });
      const movies = await ok<Array<{ Id: string; Plays: number }>>(post('/stats/getMostViewedByType', { days: 7, type: 'Movie' }));
      expect(pick(movies, 'Id', 'Plays')).toEqual([
        { Id: 'm1', Plays: 2 },
        { Id: 'm2', Plays: 1 },
        { Id: 'm3', Plays: 1 },
      ]);
      expect(await ok(post('/stats/getGlobalUserStats', { hours: 9999 * 24, userid: 'u1' }))).toEqual({
        Plays: 5,
        total_playback_duration: 4299,
        UserId: 'u1',
      });
      expect((await ok<Array<{ Id: string; Plays: number }>>(post('/stats/getMostViewedLibraries', { days: 7 })))[0]).toMatchObject({
        Id: 'movies',
        Plays: 4,
      });
      expect(await findRollupDifferences(db)).toEqual([]);
    });

    it('purges an item with its activity, and a library without', async () => {
      expect(await ok(harness.call('DELETE', '/api/item/purge', { body: { id: 's1', withActivity: true }, token }))).toMatchObject({
        items: 6,
        plays: 3,
      });
      expect(await ok(post('/stats/getGlobalLibraryStats', { hours: 24, libraryid: 'shows' }))).toEqual({
        Plays: 0,
        total_playback_duration: 0,
        LibraryId: 'shows',
      });
      expect(await ok(post('/stats/getGlobalUserStats', { hours: 9999 * 24, userid: 'u2' }))).toEqual({
        Plays: 1,
        total_playback_duration: 2000,
        UserId: 'u2',
      });
      expect(await ok(harness.call('DELETE', '/api/library/purge', { body: { id: 'music', withActivity: false }, token }))).toMatchObject({
        items: 1,
        plays: 0,
        libraries: 1,
      });
      expect((await ok<{ total: number }>(get('/api/getHistory'))).total).toBe(6);
      expect(
        await ok(harness.call('DELETE', '/api/libraryItems/purge', { body: { id: 'movies', withActivity: true }, token })),
      ).toMatchObject({ items: 3, plays: 5 });
      expect((await ok<{ total: number }>(get('/api/getHistory'))).total).toBe(1);
      expect(await ok(post('/stats/getPlaybackMethodStats', { days: 60 }))).toEqual([
        { Name: 'DirectPlay', Count: 1, total_playback_duration: 200 },
      ]);
      expect(await findRollupDifferences(db)).toEqual([]);
    });
  });
});
