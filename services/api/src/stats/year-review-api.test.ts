import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, recordPlays, type Database, type PlayToRecord } from '@reelstat/core';
import type { YearReviewAnswer } from '@reelstat/contract';
import { testLogger } from '@reelstat/core/test-support/test-services.js';
import { startApiHarness, type ApiHarness, createAdmin, insertUnreachableServer } from '@reelstat/server/test-support/api-harness.js';

/**
 * The year in review on a small history, every figure worked out by hand from this table (Europe/Paris is
 * UTC+1 in winter, UTC+2 in summer):
 *
 *  play  user   item            UTC start            Paris time         seconds  in 2025 (Paris)?
 *  A6    Alice  m2 Alien        2024-12-31 23:30     2025-01-01 00:30    1500    yes (first play)
 *  A1    Alice  m1 Heat         2025-03-01 20:00     21:00               6000    yes  ┐ a binge: each starts
 *  A2    Alice  e1 Dark S1E1    2025-03-01 21:45     22:45               3000    yes  │ 5 min after the last
 *  A3    Alice  e2 Dark S1E2    2025-03-01 22:40     23:40               3000    yes  ┘ ended (12000 s, 3 plays)
 *  B1    Bob    e3 Dark S2E1    2025-03-01 20:30     21:30               1000    yes
 *  B2    Bob    m1 Heat         2025-05-05 08:00     10:00               4000    yes
 *  A4    Alice  m2 Alien        2025-07-14 12:00     14:00               2000    yes (last play)
 *  A5    Alice  m1 Heat         2025-12-31 23:30     2026-01-01 00:30    1000    no
 *  C1    Carol  m1 Heat         2024-06-01 10:00                          500    no
 *
 * Genres: Heat = Action, Crime; Alien = Horror; the series Dark = Drama (its episodes carry none).
 */
describe('year in review API', () => {
  let harness: ApiHarness;
  let db: Database;
  let token: string;
  const serverId = randomUUID();
  const review = async (query: string) => {
    const answer = await harness.call('GET', `/api/getYearInReview?${query}`, { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as YearReviewAnswer;
  };

  beforeAll(async () => {
    harness = await startApiHarness();
    token = await createAdmin(harness);
    db = openDatabase(harness.database.url, testLogger);
    await insertUnreachableServer(db, serverId, 'Home & Co');
    await db.query(
      `INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, 'u1', 'Alice', true), ($1, 'u2', 'Bob', true), ($1, 'u3', 'Carol', true)`,
      [serverId],
    );
    await db.query(
      `INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'movies', 'Movies', 'movies'), ($1, 'shows', 'Shows', 'tvshows')`,
      [serverId],
    );
    await db.query(
      `INSERT INTO items (server_id, id, library_id, type, name, series_id, series_name, season_id) VALUES
       ($1, 'm1', 'movies', 'Movie', 'Heat', NULL, NULL, NULL), ($1, 'm2', 'movies', 'Movie', 'Alien', NULL, NULL, NULL),
       ($1, 's1', 'shows', 'Series', 'Dark', NULL, NULL, NULL), ($1, 'e1', 'shows', 'Episode', 'Secrets', 's1', 'Dark', NULL),
       ($1, 'e2', 'shows', 'Episode', 'Lies', 's1', 'Dark', NULL), ($1, 'e3', 'shows', 'Episode', 'Ghosts', 's1', 'Dark', NULL)`,
      [serverId],
    );
    await db.query(
      `INSERT INTO item_genres (server_id, item_id, genre) VALUES ($1, 'm1', 'Action'), ($1, 'm1', 'Crime'), ($1, 'm2', 'Horror'), ($1, 's1', 'Drama')`,
      [serverId],
    );
    const users = { Alice: 'u1', Bob: 'u2', Carol: 'u3' } as const;
    const items = {
      m1: { itemId: 'm1', itemName: 'Heat', itemType: 'Movie', libraryId: 'movies' },
      m2: { itemId: 'm2', itemName: 'Alien', itemType: 'Movie', libraryId: 'movies' },
      e1: {
        itemId: 'e1',
        itemName: 'Secrets',
        itemType: 'Episode',
        libraryId: 'shows',
        seriesId: 's1',
        seriesName: 'Dark',
        seasonId: 's1-1',
      },
      e2: { itemId: 'e2', itemName: 'Lies', itemType: 'Episode', libraryId: 'shows', seriesId: 's1', seriesName: 'Dark', seasonId: 's1-1' },
      e3: {
        itemId: 'e3',
        itemName: 'Ghosts',
        itemType: 'Episode',
        libraryId: 'shows',
        seriesId: 's1',
        seriesName: 'Dark',
        seasonId: 's1-2',
      },
    };
    const play = (key: string, who: keyof typeof users, what: keyof typeof items, at: string, playedSeconds: number): PlayToRecord => ({
      serverId,
      playKey: key,
      source: 'monitor',
      userId: users[who],
      userName: who,
      ...items[what],
      client: 'Web',
      playMethod: 'DirectPlay',
      startedAt: new Date(at),
      playedSeconds,
    });
    await recordPlays(db, [
      play('A6', 'Alice', 'm2', '2024-12-31T23:30:00Z', 1500),
      play('A1', 'Alice', 'm1', '2025-03-01T20:00:00Z', 6000),
      play('A2', 'Alice', 'e1', '2025-03-01T21:45:00Z', 3000),
      play('A3', 'Alice', 'e2', '2025-03-01T22:40:00Z', 3000),
      play('B1', 'Bob', 'e3', '2025-03-01T20:30:00Z', 1000),
      play('B2', 'Bob', 'm1', '2025-05-05T08:00:00Z', 4000),
      play('A4', 'Alice', 'm2', '2025-07-14T12:00:00Z', 2000),
      play('A5', 'Alice', 'm1', '2025-12-31T23:30:00Z', 1000),
      play('C1', 'Carol', 'm1', '2024-06-01T10:00:00Z', 500),
    ]);
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await harness.stop();
  });

  it("a user's year, compared with the server's average viewer", async () => {
    const alice = await review('year=2025&userId=u1&timeZone=Europe/Paris');
    expect(alice).toMatchObject({ Year: 2025, TimeZone: 'Europe/Paris', UserId: 'u1', UserName: 'Alice', Plays: 5, WatchSeconds: 15500 });
    expect(alice.TopItems.map((r) => [r.Id, r.Name, r.Plays, r.WatchSeconds])).toEqual([
      ['m1', 'Heat', 1, 6000],
      ['m2', 'Alien', 2, 3500],
    ]);
    expect(alice.TopSeries.map((r) => [r.Id, r.Name, r.Plays, r.WatchSeconds])).toEqual([['s1', 'Dark', 2, 6000]]);
    expect(alice.TopGenres).toEqual([
      { Genre: 'Drama', Plays: 2, WatchSeconds: 6000 },
      { Genre: 'Action', Plays: 1, WatchSeconds: 6000 },
      { Genre: 'Crime', Plays: 1, WatchSeconds: 6000 },
      { Genre: 'Horror', Plays: 2, WatchSeconds: 3500 },
    ]);
    expect(alice.BusiestDay).toEqual({ Date: '2025-03-01', Plays: 3, WatchSeconds: 12000 });
    expect(alice.BusiestHour).toEqual({ Hour: 21, Plays: 1, WatchSeconds: 6000 });
    expect(alice.LongestBinge).toEqual({
      UserId: 'u1',
      UserName: 'Alice',
      Start: '2025-03-01T20:00:00.000Z',
      End: '2025-03-01T23:30:00.000Z',
      Title: 'Dark',
      Plays: 3,
      WatchSeconds: 12000,
    });
    expect(alice.FirstPlay).toEqual({ Date: '2024-12-31T23:30:00.000Z', Title: 'Alien', UserName: 'Alice' });
    expect(alice.LastPlay).toEqual({ Date: '2025-07-14T12:00:00.000Z', Title: 'Alien', UserName: 'Alice' });
    expect(alice.Server).toEqual({
      Plays: 7,
      WatchSeconds: 20500,
      ActiveUsers: 2,
      AveragePlaysPerUser: 3.5,
      AverageWatchSecondsPerUser: 10250,
    });
  });

  it("the server's year: totals, busiest day and hour from the rollups", async () => {
    const server = await review('year=2025&timeZone=Europe/Paris');
    expect(server).toMatchObject({ UserId: null, UserName: null, Plays: 7, WatchSeconds: 20500 });
    expect(server.BusiestDay).toEqual({ Date: '2025-03-01', Plays: 4, WatchSeconds: 13000 });
    expect(server.BusiestHour).toEqual({ Hour: 21, Plays: 2, WatchSeconds: 7000 });
    expect(server.TopItems.map((r) => [r.Name, r.Plays, r.WatchSeconds])).toEqual([
      ['Heat', 2, 10000],
      ['Alien', 2, 3500],
    ]);
    expect(server.TopSeries.map((r) => [r.Name, r.Plays, r.WatchSeconds])).toEqual([['Dark', 3, 7000]]);
    expect(server.TopGenres.map((g) => [g.Genre, g.Plays, g.WatchSeconds])).toEqual([
      ['Action', 2, 10000],
      ['Crime', 2, 10000],
      ['Drama', 3, 7000],
      ['Horror', 2, 3500],
    ]);
    expect(server.LongestBinge?.UserName).toBe('Alice');
    expect(server.LastPlay?.Date).toBe('2025-07-14T12:00:00.000Z');
  });

  it('the year follows the time zone: in UTC the New Year plays change years', async () => {
    const alice = await review('year=2025&userId=u1&timeZone=UTC');
    expect([alice.Plays, alice.WatchSeconds]).toEqual([5, 15000]);
    expect(alice.FirstPlay?.Date).toBe('2025-03-01T20:00:00.000Z');
    expect(alice.LastPlay?.Date).toBe('2025-12-31T23:30:00.000Z');
    expect(alice.BusiestHour).toEqual({ Hour: 20, Plays: 1, WatchSeconds: 6000 });
  });

  it('a year without plays answers zeros and nulls', async () => {
    const carol = await review('year=2025&userId=u3&timeZone=Europe/Paris');
    expect(carol).toMatchObject({
      Plays: 0,
      WatchSeconds: 0,
      TopItems: [],
      TopSeries: [],
      TopGenres: [],
      BusiestDay: null,
      BusiestHour: null,
    });
    expect([carol.LongestBinge, carol.FirstPlay, carol.LastPlay]).toEqual([null, null, null]);
  });

  it('rejects bad input in the error shape', async () => {
    for (const [query, pattern] of [
      ['year=abc', /query\.year/],
      ['year=1999', /query\.year: must be 2000 or later/],
      ['year=2025&timeZone=Mars/Olympus', /query\.timeZone: must be an IANA time zone/],
    ] as const) {
      const answer = await harness.call('GET', `/api/getYearInReview?${query}`, { token });
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toMatch(pattern);
    }
    const nobody = await harness.call('GET', '/api/getYearInReview?year=2025&userId=nobody', { token });
    expect(nobody.status).toBe(404);
  });

  it('renders the shareable PNG card', async () => {
    const res = await fetch(`${harness.url}/api/getYearInReviewCard?year=2025&userId=u1&timeZone=Europe/Paris`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="reelstat-2025-Alice.png"');
    const png = Buffer.from(await res.arrayBuffer());
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: width and height, big-endian, right after the signature and the chunk header.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });
});
