import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { deletePlays } from '../history/delete-plays.js';
import { recordPlays, writeHistory, type PlayToRecord } from '../history/record-plays.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import { REBUILD_ROLLUPS_SQL } from '../history/rollup-sql.js';
import { BINGE_GAP_MINUTES } from '../history/review-rollup-sql.js';
import type { GenreRow, SyncItemRow } from '../sync/item-rows.js';
import { SyncRepository } from '../sync/sync-repository.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import {
  genresOfYear,
  longestBinge,
  serverTotalsOfYear,
  serverYearSoFarFromCharts,
  topsFromYearRollup,
  topsOfYear,
} from './year-review-queries.js';

/**
 * The year in review's genres (play_genre_rollups), longest binge (play_binge_runs) and the server's totals a user's
 * review compares with (the cards' month rows) against the same figures
 * computed from the year's plays alone (the queries the review ran before 0028), for two years, in zones behind,
 * at and ahead of UTC (+05:45 too), for the server and every user; after genres change through a sync, plays
 * are deleted (splitting runs), imported out of order (joining runs), extended, and after a rebuild.
 */
describe('year in review from its rollups', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const rand = seededRandom(21);
  const zones = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu'];
  const years = [2025, 2026];
  const users = ['u0', 'u1', 'u2', 'u3'];
  const GENRES = ['Drama', 'Comedy', 'Action', 'Documentary'];
  const HOUR = 3_600_000;
  let playCount = 0;

  const movies = Array.from({ length: 8 }, (_, n) => `m${n}`);
  const series = ['s0', 's1', 's2'];
  const episodes = Array.from({ length: 12 }, (_, n) => ({ id: `e${n}`, series: series[n % 3]! }));

  /** A play of u starting at `at`, of a random movie or episode. */
  const play = (userId: string, at: number, seconds = 60 * (5 + Math.floor(50 * rand()))): PlayToRecord => {
    const n = playCount++;
    const episode = rand() < 0.6 ? episodes[Math.floor(rand() * episodes.length)]! : null;
    const itemId = episode ? episode.id : movies[Math.floor(rand() * movies.length)]!;
    return {
      serverId,
      playKey: `p${n}`,
      source: 'monitor',
      userId,
      userName: `User ${userId}`,
      itemId,
      itemName: `Item ${itemId}`,
      itemType: episode ? 'Episode' : 'Movie',
      seriesId: episode?.series ?? null,
      seriesName: episode ? `Series ${episode.series}` : null,
      playMethod: 'DirectPlay',
      startedAt: new Date(at),
      endedAt: new Date(at + seconds * 1000),
      playedSeconds: seconds,
    };
  };

  /** Sessions of back-to-back plays (gaps around the binge limit), some of them across the years' edges. */
  const sessions = (userId: string, count: number): PlayToRecord[] => {
    const plays: PlayToRecord[] = [];
    const edges = [Date.UTC(2025, 0, 1), Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)];
    for (let s = 0; s < count; s++) {
      let at =
        s < 6
          ? edges[s % 3]! + (rand() - 0.5) * 40 * HOUR // around a UTC new year (and the zones' new years nearby)
          : Date.UTC(2024, 11, 1) + rand() * 760 * 24 * HOUR;
      const length = 1 + Math.floor(rand() * 6);
      for (let k = 0; k < length; k++) {
        const p = play(userId, Math.floor(at));
        plays.push(p);
        const gapMinutes = rand() < 0.8 ? rand() * BINGE_GAP_MINUTES : BINGE_GAP_MINUTES + rand() * 60;
        at = p.startedAt.getTime() + p.playedSeconds * 1000 + gapMinutes * 60_000;
      }
    }
    return plays;
  };

  const itemRows = (ids: string[]) =>
    ids.map((id) => ({
      server_id: serverId,
      id,
      type: id.startsWith('m') ? 'Movie' : id.startsWith('s') ? 'Series' : 'Episode',
      name: id,
    }));
  const genreRows = (id: string, genres: string[]): GenreRow[] => genres.map((genre) => ({ server_id: serverId, item_id: id, genre }));
  const pick = () => GENRES.filter(() => rand() < 0.4);

  /** A sync page of items and their genres, as the sync writes it. */
  const syncItems = (genres: Record<string, string[]>) =>
    new SyncRepository(db).writeItems({
      items: itemRows(Object.keys(genres)) as unknown as SyncItemRow[],
      sources: [],
      streams: [],
      genres: Object.entries(genres).flatMap(([id, list]) => genreRows(id, list)),
    });

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    // Movies and series carry genres; a few episodes carry their own (the others count their series').
    const genres: Record<string, string[]> = {};
    for (const id of [...movies, ...series]) genres[id] = pick();
    for (const e of episodes) genres[e.id] = e.id === 'e0' || e.id === 'e4' ? ['Comedy'] : [];
    await syncItems(genres);
    // And the longest binge of all, 12 plays of 90 minutes across the new year of UTC and of New York: cut at
    // each, each part is still the longest of its year.
    const marathon: PlayToRecord[] = [];
    for (let k = 0; k < 12; k++) marathon.push(play('u1', Date.UTC(2025, 11, 31, 14) + k * 95 * 60_000, 90 * 60));
    await recordPlays(db, [...users.flatMap((u, i) => sessions(u, 10 + 8 * i)), ...marathon]);
  });
  afterAll(async () => {
    await close();
  });

  /** The genres counted from the year's plays (what genresOfYear ran before the rollup). */
  const genresFromHistory = (year: number, tz: string, userId: string | null) =>
    db.query<{ genre: string; plays: number; seconds: string }>(
      `WITH per_item AS (
         SELECT item_id, series_id, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds FROM playback_history
         WHERE server_id = $1 AND started_at >= make_timestamptz($2, 1, 1, 0, 0, 0, $3) AND started_at < make_timestamptz($2 + 1, 1, 1, 0, 0, 0, $3)
           AND ($4::text IS NULL OR user_id = $4)
         GROUP BY 1, 2
       ), tagged AS (
         SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.item_id
         UNION ALL
         SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.series_id
         WHERE NOT EXISTS (SELECT 1 FROM item_genres e WHERE e.server_id = $1 AND e.item_id = p.item_id)
       )
       SELECT genre, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM tagged GROUP BY genre ORDER BY 3 DESC, 2 DESC, 1 LIMIT 5`,
      [serverId, year, tz, userId],
    );

  /** The top items and series counted per item, then per series, from the year's plays (as topsOfYear did before). */
  const topsFromHistory = (year: number, tz: string, userId: string | null) =>
    db.query<{ kind: string; id: string; plays: number; seconds: string }>(
      `WITH per_item AS (
         SELECT item_id, series_id, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds FROM playback_history
         WHERE server_id = $1 AND started_at >= make_timestamptz($2, 1, 1, 0, 0, 0, $3) AND started_at < make_timestamptz($2 + 1, 1, 1, 0, 0, 0, $3)
           AND ($4::text IS NULL OR user_id = $4)
         GROUP BY 1, 2
       )
       (SELECT 'item' AS kind, item_id AS id, plays, seconds FROM per_item WHERE series_id IS NULL ORDER BY seconds DESC, plays DESC, item_id LIMIT 5)
       UNION ALL
       (SELECT 'series', series_id, sum(plays)::int, sum(seconds)::bigint FROM per_item WHERE series_id IS NOT NULL
        GROUP BY series_id ORDER BY 4 DESC, 3 DESC, 2 LIMIT 5)`,
      [serverId, year, tz, userId],
    );

  /** The longest binge by window functions over the year's plays (what longestBinge ran before the runs table). */
  const bingeFromHistory = async (year: number, tz: string, userId: string | null) => {
    const [run] = await db.query<{ user_id: string; started_at: Date; ended_at: Date; plays: number; seconds: string }>(
      `WITH plays AS (
         SELECT id, user_id, started_at, played_seconds, started_at + make_interval(secs => played_seconds) AS ended_at FROM playback_history
         WHERE server_id = $1 AND started_at >= make_timestamptz($2, 1, 1, 0, 0, 0, $3) AND started_at < make_timestamptz($2 + 1, 1, 1, 0, 0, 0, $3)
           AND ($4::text IS NULL OR user_id = $4)
       ), marked AS (
         SELECT *, CASE WHEN started_at - lag(ended_at) OVER (PARTITION BY user_id ORDER BY started_at, id)
             <= make_interval(mins => ${BINGE_GAP_MINUTES}) THEN 0 ELSE 1 END AS starts_run
         FROM plays
       ), runs AS (
         SELECT *, sum(starts_run) OVER (PARTITION BY user_id ORDER BY started_at, id ROWS UNBOUNDED PRECEDING) AS run FROM marked
       )
       SELECT user_id, min(started_at) AS started_at, max(ended_at) AS ended_at, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM runs GROUP BY user_id, run HAVING count(*) > 1
       ORDER BY seconds DESC, plays DESC, started_at LIMIT 1`,
      [serverId, year, tz, userId],
    );
    return run
      ? {
          userId: run.user_id,
          start: run.started_at.toISOString(),
          end: run.ended_at.toISOString(),
          plays: run.plays,
          seconds: Number(run.seconds),
        }
      : null;
  };

  /** Every year × zone × (server, each user): the rollups' answers equal the history's; returns how many were compared. */
  const expectSameAsHistory = async () => {
    let compared = 0;
    for (const year of years)
      for (const tz of zones)
        for (const userId of [null, ...users]) {
          const genres = await genresOfYear(db, serverId, year, tz, userId);
          const expected = await genresFromHistory(year, tz, userId);
          expect(genres, `genres ${year} ${tz} ${userId}`).toEqual(
            expected.map((r) => ({ genre: r.genre, plays: r.plays, seconds: Number(r.seconds) })),
          );
          const binge = await longestBinge(db, serverId, year, tz, userId);
          const expectedBinge = await bingeFromHistory(year, tz, userId);
          expect(
            binge && { userId: binge.userId, start: binge.start, end: binge.end, plays: binge.plays, seconds: binge.seconds },
            `binge ${year} ${tz} ${userId}`,
          ).toEqual(expectedBinge);
          // The tops of one pass (a user's review) equal the plays counted per item, then per series (the query before).
          const pass = await topsOfYear(db, serverId, year, tz, userId);
          const perItem = await topsFromHistory(year, tz, userId);
          expect(
            [...pass.items.map((r) => ['item', r.id, r.plays, r.seconds]), ...pass.series.map((r) => ['series', r.id, r.plays, r.seconds])],
            `tops ${year} ${tz} ${userId}`,
          ).toEqual(perItem.map((r) => [r.kind, r.id, r.plays, Number(r.seconds)]));
          // The server's tops from the year's rows (play_year_tops) equal one pass over the year's plays, read
          // from the first row on (the stopping rule decides at each depth: 1, 4, 16) and at the review's depth.
          if (userId === null) {
            const tops = await topsOfYear(db, serverId, year, tz, null);
            for (const firstDepth of [1, 20])
              expect(await topsFromYearRollup(db, serverId, year, tz, firstDepth), `year tops ${year} ${tz} ${firstDepth}`).toEqual(tops);
          }
          if (expected.length && expectedBinge) compared++;
        }
    // The server's totals a user's review compares with: the cards' months plus or minus the edges.
    for (const year of years)
      for (const tz of zones) {
        const [total] = await db.query<{ plays: number; seconds: string }>(
          `SELECT count(*)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS seconds FROM playback_history
           WHERE server_id = $1 AND started_at >= make_timestamptz($2, 1, 1, 0, 0, 0, $3) AND started_at < make_timestamptz($2 + 1, 1, 1, 0, 0, 0, $3)`,
          [serverId, year, tz],
        );
        expect(await serverTotalsOfYear(db, serverId, year, tz), `totals ${year} ${tz}`).toEqual({
          plays: total!.plays,
          seconds: Number(total!.seconds),
        });
      }
    expect(await findRollupDifferences(db)).toEqual([]);
    return compared;
  };

  it('holds runs across the years’ edges and equals the history', async () => {
    // Some binge is cut by a zone's new year: a run holds plays on both sides of it.
    const [crossing] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM play_binge_runs r, unnest(ARRAY[make_timestamptz(2026, 1, 1, 0, 0, 0, 'Asia/Kolkata'),
         make_timestamptz(2026, 1, 1, 0, 0, 0, 'America/New_York'), make_timestamptz(2026, 1, 1, 0, 0, 0, 'UTC')]) AS edge
       WHERE r.server_id = $1 AND r.started_at < edge AND r.last_started_at >= edge`,
      [serverId],
    );
    expect(crossing!.n).toBeGreaterThan(0);
    expect(await expectSameAsHistory()).toBeGreaterThan(20);
  });

  it('follows genres changed by a sync: an item’s own, an episode’s (its series’ no longer), a series’', async () => {
    await syncItems({ m0: ['Western'], m1: [], e0: [], e1: ['Western', 'Drama'], s1: ['Action', 'Western'], s2: [] });
    const [western] = await db.query<{ plays: number }>(
      `SELECT sum(plays)::int AS plays FROM play_genre_rollups WHERE server_id = $1 AND user_id = '' AND genre = 'Western'`,
      [serverId],
    );
    expect(western!.plays).toBeGreaterThan(0);
    await expectSameAsHistory();
  });

  it('splits runs when plays are deleted and joins them when older plays are imported', async () => {
    // Delete every fifth play: runs lose their middle, their first or their last play.
    expect(await deletePlays(db, serverId, `h.id % 5 = 0`, [])).toBeGreaterThan(0);
    await expectSameAsHistory();
    // Imported out of order: plays inside the gaps of existing runs and right before them.
    const [runs] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM play_binge_runs WHERE server_id = $1', [serverId]);
    const gaps = await db.query<{ user_id: string; at: Date }>(
      `SELECT user_id, started_at - interval '20 minutes' AS at FROM play_binge_runs WHERE server_id = $1 ORDER BY started_at LIMIT 40`,
      [serverId],
    );
    await recordPlays(
      db,
      gaps.map((g) => play(g.user_id, g.at.getTime(), 15 * 60)),
    );
    const [after] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM play_binge_runs WHERE server_id = $1', [serverId]);
    expect(after!.n).not.toBe(runs!.n);
    await expectSameAsHistory();
  });

  it('keeps the runs exact through single deletes and inserts, one statement at a time', async () => {
    for (let step = 0; step < 40; step++) {
      if (step % 2 === 0) {
        const [victim] = await db.query<{ id: string }>(
          `SELECT id::text FROM playback_history WHERE server_id = $1 ORDER BY md5(id::text || $2) LIMIT 1`,
          [serverId, String(step)],
        );
        await deletePlays(db, serverId, 'h.id = $2::bigint', [victim!.id]);
      } else {
        // Next to a stored run's start or end, or between two of its plays.
        const [near] = await db.query<{ user_id: string; at: Date }>(
          `SELECT user_id, CASE $2::int % 3 WHEN 0 THEN started_at - interval '25 minutes' WHEN 1 THEN ended_at + interval '10 minutes'
             ELSE started_at + (last_started_at - started_at) / 2 END AS at
           FROM play_binge_runs WHERE server_id = $1 ORDER BY md5(started_at::text || $2) LIMIT 1`,
          [serverId, step],
        );
        await recordPlays(db, [play(near!.user_id, near!.at.getTime(), 60 * (1 + (step % 20)))]);
      }
      expect(
        (await findRollupDifferences(db)).filter((d) => d.level === 'binge_runs'),
        `step ${step}`,
      ).toEqual([]);
    }
    await expectSameAsHistory();
  });

  it('follows a play extended while it goes on, and a rebuild gives the same rows', async () => {
    const [last] = await db.query<{ play_key: string; user_id: string; started_at: Date }>(
      `SELECT play_key, user_id, started_at FROM playback_history WHERE server_id = $1 ORDER BY played_seconds LIMIT 1`,
      [serverId],
    );
    const extended = { ...play(last!.user_id, last!.started_at.getTime(), 4 * 3600), playKey: last!.play_key };
    const written = await writeHistory(db, [extended]);
    expect(written.extended).toHaveLength(1);
    await expectSameAsHistory();
    const before = await db.query('SELECT * FROM play_binge_runs ORDER BY 1, 2, 3');
    await db.query(REBUILD_ROLLUPS_SQL);
    expect(await db.query('SELECT * FROM play_binge_runs ORDER BY 1, 2, 3')).toEqual(before);
    await expectSameAsHistory();
  });
});

/**
 * The year that is going on: the server's totals, busiest day and busiest hour from the day and hour charts'
 * levels (a window from 1 January in the zone to now) against the history, in zones behind, at and ahead of
 * UTC. The plays are spread over the year so far (and the end of the year before), none after now.
 */
describe('the year so far from the charts', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const rand = seededRandom(2121);
  const now = Date.now();
  const year = new Date(now).getUTCFullYear();

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    const from = Date.UTC(year, 0, 1) - 2 * 86_400_000;
    const plays: PlayToRecord[] = Array.from({ length: 800 }, (_, n) => {
      const at = from + Math.floor(rand() ** 0.7 * (now - 60_000 - from));
      const seconds = 60 * (1 + Math.floor(rand() * 90));
      return {
        serverId,
        playKey: `y${n}`,
        source: 'monitor',
        userId: `u${n % 5}`,
        userName: 'someone',
        itemId: `m${n % 17}`,
        itemName: 'Item',
        itemType: 'Movie',
        libraryId: `lib${n % 3}`,
        playMethod: 'DirectPlay',
        startedAt: new Date(at),
        endedAt: new Date(at + seconds * 1000),
        playedSeconds: seconds,
      };
    });
    await recordPlays(db, plays);
  });
  afterAll(async () => {
    await close();
  });

  it('equals the year’s plays counted by day and by hour', async () => {
    for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu']) {
      const rows = await db.query<{ kind: string; key: string; plays: number; seconds: string }>(
        `WITH plays AS (
           SELECT started_at AT TIME ZONE $3 AS local, played_seconds FROM playback_history
           WHERE server_id = $1 AND started_at >= make_timestamptz($2, 1, 1, 0, 0, 0, $3) AND started_at < make_timestamptz($2 + 1, 1, 1, 0, 0, 0, $3)
         )
         SELECT 'total' AS kind, '' AS key, count(*)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS seconds FROM plays
         UNION ALL (SELECT 'day', to_char(local, 'YYYY-MM-DD'), count(*)::int, sum(played_seconds)::bigint FROM plays GROUP BY 2
                    ORDER BY 4 DESC, 3 DESC, 2 LIMIT 1)
         UNION ALL (SELECT 'hour', extract(hour FROM local)::int::text, count(*)::int, sum(played_seconds)::bigint FROM plays GROUP BY 2
                    ORDER BY 4 DESC, 3 DESC, 2::int LIMIT 1)`,
        [serverId, year, tz],
      );
      const of = (kind: string) => rows.find((row) => row.kind === kind);
      const day = of('day');
      const hour = of('hour');
      expect(await serverYearSoFarFromCharts(db, serverId, year, tz), tz).toEqual({
        total: { plays: of('total')!.plays, seconds: Number(of('total')!.seconds) },
        busiestDay: day ? { date: day.key, plays: day.plays, seconds: Number(day.seconds) } : null,
        busiestHour: hour ? { hour: Number(hour.key), plays: hour.plays, seconds: Number(hour.seconds) } : null,
      });
    }
  });
});
