import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { deletePlays } from '../history/delete-plays.js';
import { recordPlays, writeHistory, type PlayToRecord } from '../history/record-plays.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import { CARD_KINDS } from '../history/rollup-sql.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { playMethodCounts, topClients, topItems, topLibraries, topUsers, type CardType } from './card-queries.js';
import { topOfWindow } from './card-windows.js';
import { globalStats, playMethodWindow, seriesWindow } from './scope-queries.js';
import { daysWindowStart } from './time-window.js';

/**
 * The cards read play_card_rollups (months, days, all time) plus the history before the window's first UTC
 * midnight. Each answer is compared with the same ranking counted straight from playback_history, for windows
 * that start inside a month, on month edges and before any play, in zones west and east of UTC (+05:30 too).
 */
describe('cards from the card rollups', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const rand = seededRandom(20);
  const DAY = 86_400_000;
  const zones = ['UTC', 'Asia/Kolkata', 'America/New_York'];
  const windows = [1, 6, 7, 8, 30, 45, 365, 9999];

  const play = (n: number): PlayToRecord => {
    const kind = n % 3;
    // A few popular items, a long tail, and equal counts often enough that ties are broken by seconds and names.
    const item = Math.floor(40 * rand() ** 2);
    const series = kind === 1 ? `s${item % 7}` : null;
    const startedAt = new Date(Date.now() - Math.floor(rand() ** 1.5 * 420 * DAY) - 60_000);
    const playedSeconds = 60 * (1 + Math.floor(4 * rand()));
    return {
      serverId,
      playKey: `p${n}`,
      source: 'monitor',
      userId: `u${Math.floor(9 * rand())}`,
      userName: 'someone',
      itemId: `${['m', 'e', 'a'][kind]}${item}`,
      itemName: `Item ${item}`,
      itemType: ['Movie', 'Episode', 'Audio'][kind],
      seriesId: series,
      seriesName: series && `Series ${series}`,
      libraryId: rand() < 0.1 ? null : `lib${Math.floor(6 * rand() ** 2)}`,
      client: rand() < 0.1 ? null : `client${Math.floor(7 * rand() ** 2)}`,
      playMethod: (['DirectPlay', 'DirectStream', 'Transcode'] as const)[Math.floor(3 * rand() ** 2)]!,
      startedAt,
      endedAt: new Date(startedAt.getTime() + playedSeconds * 1000),
      playedSeconds,
    };
  };

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    const plays = Array.from({ length: 1500 }, (_, n) => play(n));
    // Plays right at and around the UTC midnights and month edges the windows cut at.
    const now = new Date();
    for (const [k, at] of [
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1000,
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 7),
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1),
    ].entries()) {
      if (at < Date.now()) plays.push({ ...play(5000 + k), startedAt: new Date(at), endedAt: new Date(at + 1000) });
    }
    await recordPlays(db, plays);
  });
  afterAll(async () => {
    await close();
  });

  /** The ranking counted from the history alone (names as the plays carry them: none of the items is in the library). */
  const expectedItems = async (tz: string, days: number, type: CardType, by: 'plays' | 'viewers' = 'plays') => {
    const { key, filter } = CARD_KINDS[type];
    const rows = await db.query<{ id: string; plays: number; viewers: number; seconds: string; name: string }>(
      `SELECT ${key} AS id, count(*)::int AS plays, count(DISTINCT user_id)::int AS viewers, sum(played_seconds) AS seconds,
         (array_agg(${type === 'Series' ? 'series_name' : 'item_name'} ORDER BY started_at DESC))[1] AS name
       FROM playback_history WHERE server_id = $1 AND started_at >= ${daysWindowStart('$2', '$3')} AND ${filter} GROUP BY 1
       ORDER BY ${by === 'viewers' ? '3 DESC, ' : ''}2 DESC, 4 DESC, 5, 1 LIMIT 5`,
      [serverId, tz, days],
    );
    return rows.map((row) => ({
      Id: row.id,
      Plays: row.plays,
      ...(by === 'viewers' ? { unique_viewers: row.viewers } : {}),
      total_playback_duration: Number(row.seconds),
    }));
  };

  /** Plays per key of a card counted from the history, as [key, plays, seconds] in the card's order. */
  const expectedCounts = async (tz: string, days: number, key: string) => {
    const rows = await db.query<{ key: string; plays: number; seconds: string }>(
      `SELECT ${key} AS key, count(*)::int AS plays, sum(played_seconds) AS seconds FROM playback_history
       WHERE server_id = $1 AND started_at >= ${daysWindowStart('$2', '$3')} AND ${key} <> '' GROUP BY 1 ORDER BY 2 DESC, 3 DESC, 1`,
      [serverId, tz, days],
    );
    return rows.map((row) => [row.key, row.plays, Number(row.seconds)]);
  };

  const expectedUsers = async (tz: string, days: number) => {
    const rows = await db.query<{ id: string; plays: number; seconds: string }>(
      `SELECT user_id AS id, count(*)::int AS plays, sum(played_seconds) AS seconds FROM playback_history
       WHERE server_id = $1 AND started_at >= ${daysWindowStart('$2', '$3')} GROUP BY 1 ORDER BY 2 DESC, 3 DESC, 1 LIMIT 5`,
      [serverId, tz, days],
    );
    return rows.map((row) => ({ UserId: row.id, Plays: row.plays, total_playback_duration: Number(row.seconds) }));
  };

  const compareAll = async () => {
    for (const tz of zones) {
      for (const days of windows) {
        for (const type of ['Movie', 'Series', 'Audio'] as const) {
          // The walk (small histories are otherwise counted from the history: historyBelow 0 walks them) and the history.
          for (const [by, historyBelow] of [
            ['plays', 0],
            ['viewers', 0],
            ['plays', undefined],
            ['viewers', undefined],
          ] as const) {
            const cards = await topItems(db, serverId, tz, days, type, by, historyBelow);
            const expected = await expectedItems(tz, days, type, by);
            expect(expected.length, `${tz} ${days} ${type}`).toBeGreaterThan(0);
            expect(
              cards.map(({ Id, Plays, unique_viewers, total_playback_duration }) => ({
                Id,
                Plays,
                ...(by === 'viewers' ? { unique_viewers } : {}),
                total_playback_duration,
              })),
              `${tz} ${days} days ${type} by ${by}`,
            ).toEqual(expected);
          }
        }
        const libraries = await topLibraries(db, serverId, tz, days);
        expect(libraries.map((l) => [l.Id, l.Plays, l.total_playback_duration])).toEqual(
          (await expectedCounts(tz, days, 'library_id')).slice(0, 5),
        );
        const clients = await topClients(db, serverId, tz, days);
        expect(clients.map((c) => [c.Client, c.Plays, c.total_playback_duration])).toEqual(
          (await expectedCounts(tz, days, 'client')).slice(0, 5),
        );
        const methods = await playMethodCounts(db, serverId, tz, days);
        expect(methods.map((m) => [m.Name, m.Count, m.total_playback_duration])).toEqual(await expectedCounts(tz, days, 'play_method'));
        const users = await topUsers(db, serverId, tz, days);
        expect(
          users.map((user) => ({ UserId: user.UserId, Plays: user.Plays, total_playback_duration: user.total_playback_duration })),
          `${tz} ${days} days users`,
        ).toEqual(await expectedUsers(tz, days));
      }
    }
  };

  it('ranks movies, series, tracks and users exactly for every window and zone', async () => {
    expect(await findRollupDifferences(db)).toEqual([]);
    await compareAll();
  });

  it('walks from the all-time leaders in small batches to the same answer', async () => {
    // Batches of one and two keys stop at every depth, so a bound that is too low (by plays, or by viewers ever
    // for the most-popular cards) ends the walk before a key of the answer was met.
    for (const tz of ['Asia/Kolkata', 'America/New_York']) {
      for (const days of [1, 6, 7, 8, 30, 365, 9999]) {
        for (const type of ['Movie', 'Series', 'Audio'] as const) {
          for (const by of ['plays', 'viewers'] as const) {
            for (const firstDepth of [1, 2]) {
              const walked = await topOfWindow(db, serverId, tz, days, type, by, 5, firstDepth, 0);
              const expected = await expectedItems(tz, days, type, by);
              // The walk keeps every key tied with the fifth (names break those ties), so it holds at least the five expected.
              expect(walked!.length).toBeGreaterThanOrEqual(Math.min(5, expected.length));
              const counts = new Map(walked!.map((row) => [row.key, row]));
              for (const card of expected) {
                const row = counts.get(card.Id);
                expect(row, `${tz} ${days} ${type} by ${by} from ${firstDepth}: ${card.Id}`).toBeDefined();
                expect([row!.plays, ...(by === 'viewers' ? [row!.viewers] : [])]).toEqual([
                  card.Plays,
                  ...(by === 'viewers' ? [card.unique_viewers] : []),
                ]);
              }
            }
          }
        }
      }
    }
  });

  it('sums a library over any window of hours from the card rollups exactly', async () => {
    for (const hours of [1, 5, 24, 49, 8 * 24, 40 * 24, 365 * 24, 9999 * 24]) {
      for (const library of ['lib0', 'lib1', 'lib5']) {
        const [expected] = await db.query<{ plays: number; seconds: string }>(
          `SELECT count(*)::int AS plays, COALESCE(sum(played_seconds), 0) AS seconds FROM playback_history
           WHERE server_id = $1 AND library_id = $2 AND started_at >= now() - make_interval(hours => $3)`,
          [serverId, library, hours],
        );
        expect(await globalStats(db, serverId, 'library', library, hours), `${library} ${hours} hours`).toEqual({
          Plays: expected!.plays,
          total_playback_duration: Number(expected!.seconds),
        });
      }
    }
  });

  it('stays exact when plays are extended and deleted', async () => {
    // Extend a play of the current month (the same key ending later) and delete some plays across the spans.
    const [recent] = await db.query<{ play_key: string }>(
      `SELECT play_key FROM playback_history WHERE server_id = $1 ORDER BY started_at DESC LIMIT 1`,
      [serverId],
    );
    const n = Number(recent!.play_key.slice(1));
    const original = await db.query<{ started_at: Date; user_id: string; item_id: string; played_seconds: number }>(
      `SELECT started_at, user_id, item_id, played_seconds FROM playback_history WHERE server_id = $1 AND play_key = $2`,
      [serverId, recent!.play_key],
    );
    const again = { ...play(n), playKey: recent!.play_key, itemId: original[0]!.item_id, userId: original[0]!.user_id };
    const extended = {
      ...again,
      startedAt: new Date(original[0]!.started_at),
      playedSeconds: original[0]!.played_seconds + 6000,
      endedAt: new Date(Date.now() + DAY),
    };
    const written = await writeHistory(db, [extended]);
    expect(written.inserted.length + written.extended.length).toBe(1);
    expect(await deletePlays(db, serverId, `h.id % 7 = 0`, [])).toBeGreaterThan(100);
    expect(await findRollupDifferences(db)).toEqual([]);
    await compareAll();
  });
  it("counts a library's playback methods over hours exactly (months, days, quarter hours, the history)", async () => {
    expect(await findRollupDifferences(db)).toEqual([]);
    for (const library of ['lib0', 'lib1', 'lib3']) {
      for (const hours of [1, 5, 30, 24 * 7, 24 * 45, 24 * 365, 9999 * 24]) {
        const counted = await db.query<{ key: string; plays: number; seconds: string }>(
          `SELECT play_method AS key, count(*)::int AS plays, sum(played_seconds) AS seconds FROM playback_history
           WHERE server_id = $1 AND library_id = $2 AND started_at >= now() - make_interval(hours => $3) GROUP BY 1`,
          [serverId, library, hours],
        );
        const types = ['DirectPlay', 'DirectStream', 'Transcode'].filter((type) => counted.some((row) => row.key === type));
        expect(await playMethodWindow(db, serverId, library, hours), `${library} ${hours} hours`).toEqual({
          stats: types.map((Key) => {
            const row = counted.find((one) => one.key === Key)!;
            return { Key, Count: row.plays, Duration: Number(row.seconds) };
          }),
          types,
        });
      }
    }
  });

  // Last: it adds plays the Series card does not count as a series' episodes.
  it("answers a series' figures over hours from the Series card exactly, and only when they mean the same", async () => {
    /** An item's plays and seconds over the last hours as ITEM_PARTS defines them, from the history alone. */
    const fromHistory = async (id: string, hours: number) => {
      const [row] = await db.query<{ plays: number; seconds: string }>(
        `SELECT count(*)::int AS plays, COALESCE(sum(played_seconds), 0) AS seconds FROM playback_history
         WHERE server_id = $1 AND started_at >= now() - make_interval(hours => $2)
           AND (item_id = $3 OR series_id = $3 OR season_id = $3)`,
        [serverId, hours, id],
      );
      return { Plays: row!.plays, total_playback_duration: Number(row!.seconds) };
    };
    const hoursList = [1, 5, 24, 30, 24 * 7, 24 * 45, 24 * 365, 24 * 400];
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000);
    const odd = (n: number, hoursAgo: number, fields: Partial<PlayToRecord>): PlayToRecord => ({
      ...play(7000 + n),
      startedAt: at(hoursAgo),
      endedAt: at(hoursAgo - 0.01),
      seriesId: null,
      seasonId: null,
      ...fields,
    });
    await recordPlays(db, [
      // s2 played as an item itself, an episode of itself, and as the season of another series' episode.
      odd(1, 2, { itemId: 's2', itemType: 'Series' }),
      odd(2, 3, { itemId: 's2', itemType: 'Episode', seriesId: 's2' }),
      odd(3, 24 * 100, { itemId: 's2', itemType: 'Episode', seriesId: 's2' }),
      odd(4, 4, { itemId: 'e-other', itemType: 'Episode', seriesId: 's3', seasonId: 's2' }),
      odd(5, 24 * 50, { itemId: 'e-other', itemType: 'Episode', seriesId: 's3', seasonId: 's2' }),
      // s1 has a play whose series is s1 but that is not an episode: the Series card does not count it.
      odd(6, 24 * 200, { itemId: 'x-odd', itemType: 'Video', seriesId: 's1' }),
    ]);
    expect(await findRollupDifferences(db)).toEqual([]);
    expect(await seriesWindow(db, serverId, 's1', 24)).toBeUndefined();
    for (const series of ['s0', 's2', 's3', 's4']) {
      const fromCards = await seriesWindow(db, serverId, series, 24 * 30);
      expect(fromCards, series).toEqual({
        plays: (await fromHistory(series, 24 * 30)).Plays,
        played_seconds: expect.any(Number) as number,
      });
    }
    for (const series of ['s0', 's1', 's2', 's3', 's4', 's5', 's6']) {
      for (const hours of hoursList) {
        expect(await globalStats(db, serverId, 'item', series, hours), `${series} ${hours} hours`).toEqual(
          await fromHistory(series, hours),
        );
      }
    }
  });
});

/**
 * The most-popular walk stops on the viewers-ever bound (play_card_viewer_counts): series with many plays per
 * viewer fill the plays lists, so only that bound can end the walk early. Built so that a bound one viewer too
 * low stops the walk before it meets a series of the answer.
 */
describe('the most-popular walk bounded by viewers ever', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    const plays: PlayToRecord[] = [];
    const add = (series: string, viewers: number, count: number) => {
      for (let n = 0; n < count; n += 1) {
        const startedAt = new Date(Date.now() - 3_600_000 - plays.length * 60_000);
        plays.push({
          serverId,
          playKey: `${series}-${n}`,
          source: 'monitor',
          userId: `u${n % viewers}`,
          userName: 'someone',
          itemId: `${series}-e${n}`,
          itemName: 'Episode',
          itemType: 'Episode',
          seriesId: series,
          seriesName: series,
          libraryId: 'shows',
          playMethod: 'DirectPlay',
          startedAt,
          endedAt: new Date(startedAt.getTime() + 60_000),
          playedSeconds: 60,
        });
      }
    };
    // First by plays (so first in the plays lists) and among the most viewed.
    add('s-top', 3, 200);
    // Three viewers each, first in the viewers-ever list (names sort before s-z).
    for (const name of ['s-hi1', 's-hi2', 's-hi3', 's-hi4', 's-hi5', 's-hi6', 's-hi7', 's-hi8']) add(name, 3, 3);
    // Three viewers too, but later in the viewers-ever list: second in the answer by its plays.
    add('s-z', 3, 50);
    // Two viewers and many plays each: what the plays lists hold after s-top.
    for (let k = 0; k < 10; k += 1) add(`p${k}`, 2, 100);
    // One play long before the window, so that the window is not all time (which needs no walk).
    const old = new Date(Date.now() - 400 * 86_400_000);
    plays.push({
      ...plays[0]!,
      playKey: 'old',
      seriesId: 'old',
      seriesName: 'old',
      startedAt: old,
      endedAt: new Date(old.getTime() + 60_000),
    });
    await recordPlays(db, plays);
  });
  afterAll(async () => {
    await close();
  });

  it('meets every series of the answer', async () => {
    expect(await findRollupDifferences(db)).toEqual([]);
    for (const firstDepth of [1, 2, 25]) {
      const walked = await topOfWindow(db, serverId, 'UTC', 30, 'Series', 'viewers', 5, firstDepth, 0);
      expect(walked!.slice(0, 2).map((row) => [row.key, row.viewers, row.plays])).toEqual([
        ['s-top', 3, 200],
        ['s-z', 3, 50],
      ]);
      const cards = await topItems(db, serverId, 'UTC', 30, 'Series', 'viewers', 0);
      expect(cards.map((card) => card.Id)).toEqual(['s-top', 's-z', 's-hi1', 's-hi2', 's-hi3']);
    }
  });
});

/**
 * The most-viewed walk over months stops on the all-time bound (no window plays a key more than all time) when
 * the month lists are flat: built so that the key first in the answer sits below twenty plays of one in every
 * month's list and is met only through the all-time list, which the walk must then count, not only use as a bound.
 */
describe('the most-viewed walk bounded by plays ever', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const DAY = 86_400_000;

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    const plays: PlayToRecord[] = [];
    const add = (key: string, count: number, daysAgo: number) => {
      for (let n = 0; n < count; n += 1) {
        const startedAt = new Date(Date.now() - daysAgo * DAY - 3_600_000 - n * 60_000);
        plays.push({
          serverId,
          playKey: `${key}-${daysAgo}-${n}`,
          source: 'monitor',
          userId: `u${n % 3}`,
          userName: 'someone',
          itemId: key,
          itemName: key,
          itemType: 'Audio',
          libraryId: 'music',
          playMethod: 'DirectPlay',
          startedAt,
          endedAt: new Date(startedAt.getTime() + 60_000),
          playedSeconds: 60,
        });
      }
    };
    // First in the all-time list, nothing in the window (700 days ago): the window is not all time either.
    for (let k = 0; k < 5; k += 1) add(`old${k}`, 30, 700);
    for (let month = 0; month < 12; month += 1) {
      // The answer's first: one play a month, after twenty plays of one in each month's list (names sort before it).
      add('z-spread', 1, 30 * month + 1);
      for (let k = 0; k < 20; k += 1) add(`f${month}-${k}`, 1, 30 * month + 2);
    }
    // Six plays in one month each: first in their month's list, tied in the answer.
    for (let k = 0; k < 6; k += 1) add(`b${k}`, 6, 30 * k + 3);
    await recordPlays(db, plays);
  });
  afterAll(async () => {
    await close();
  });

  it('meets the keys of the answer and ranks them as the history does', async () => {
    expect(await findRollupDifferences(db)).toEqual([]);
    const [first] = await db.query<{ plays: number }>(
      `SELECT count(*)::int AS plays FROM playback_history WHERE server_id = $1 AND item_id = 'z-spread' AND started_at >= ${daysWindowStart('$2', '$3')}`,
      [serverId, 'UTC', 365],
    );
    expect(first!.plays).toBe(12);
    for (const firstDepth of [1, 2, 10]) {
      const walked = await topOfWindow(db, serverId, 'UTC', 365, 'Audio', 'plays', 5, firstDepth, 0);
      // Every key tied with the fifth is kept (names break those ties), in no particular order among them.
      expect(walked!.map((row) => [row.key, row.plays]).sort(), `from ${firstDepth}`).toEqual([
        ...['b0', 'b1', 'b2', 'b3', 'b4', 'b5'].map((key) => [key, 6]),
        ['z-spread', 12],
      ]);
    }
    const cards = await topItems(db, serverId, 'UTC', 365, 'Audio', 'plays', 0);
    expect(cards.map((card) => [card.Id, card.Plays])).toEqual([['z-spread', 12], ...['b0', 'b1', 'b2', 'b3'].map((key) => [key, 6])]);
  });
});

/**
 * A window that holds every play of the server reads the all-time span; built so that the first plays fall
 * between the window's start (a local midnight, +05:30) and the next UTC midnight, the part a window otherwise
 * reads from the history: counted twice, or not at all, each card would differ from the history.
 */
describe('cards over a window that holds every play', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const tz = 'Asia/Kolkata';
  const days = 3;

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    const [{ start }] = (await db.query<{ start: Date }>(`SELECT ${daysWindowStart('$1', '$2')} AS start`, [tz, days])) as [
      { start: Date },
    ];
    const plays: PlayToRecord[] = [];
    for (let n = 0; n < 40; n += 1) {
      // The first ten an hour after the window's start (before its first UTC midnight), the rest later on.
      const startedAt = new Date(new Date(start).getTime() + (n < 10 ? 3_600_000 + n * 60_000 : 86_400_000 + n * 600_000));
      const kind = n % 3;
      plays.push({
        serverId,
        playKey: `w${n}`,
        source: 'monitor',
        userId: `u${n % 4}`,
        userName: 'someone',
        itemId: `${['m', 'e', 'a'][kind]}${n % 5}`,
        itemName: `Item ${n % 5}`,
        itemType: ['Movie', 'Episode', 'Audio'][kind],
        seriesId: kind === 1 ? `s${n % 2}` : null,
        seriesName: kind === 1 ? `Series ${n % 2}` : null,
        libraryId: `lib${n % 3}`,
        client: `client${n % 2}`,
        playMethod: 'DirectPlay',
        startedAt,
        endedAt: new Date(startedAt.getTime() + 60_000),
        playedSeconds: 60 + n,
      });
    }
    await recordPlays(db, plays);
  });
  afterAll(async () => {
    await close();
  });

  it('counts each play once', async () => {
    expect(await findRollupDifferences(db)).toEqual([]);
    const counted = async (column: string) => {
      const rows = await db.query<{ key: string; plays: number; seconds: string }>(
        `SELECT ${column} AS key, count(*)::int AS plays, sum(played_seconds) AS seconds FROM playback_history
         WHERE server_id = $1 GROUP BY 1 ORDER BY 2 DESC, 3 DESC, 1`,
        [serverId],
      );
      return rows.map((row) => [row.key, row.plays, Number(row.seconds)]);
    };
    const users = await topUsers(db, serverId, tz, days);
    expect(users.map((u) => [u.UserId, u.Plays, u.total_playback_duration])).toEqual((await counted('user_id')).slice(0, 5));
    const clients = await topClients(db, serverId, tz, days, null);
    expect(clients.map((c) => [c.Client, c.Plays, c.total_playback_duration])).toEqual(await counted('client'));
    const libraries = await topLibraries(db, serverId, tz, days);
    expect(libraries.map((l) => [l.Id, l.Plays, l.total_playback_duration])).toEqual(await counted('library_id'));
    const movies = await topItems(db, serverId, tz, days, 'Movie', 'plays');
    expect(movies.reduce((sum, card) => sum + card.Plays, 0)).toBe(14);
  });
});
