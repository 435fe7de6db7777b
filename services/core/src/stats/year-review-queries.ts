import type { Database } from '../db/database.js';
import { PLAY_END, YEAR_TOP_KEY, YEAR_TOP_KIND } from '../history/review-rollup-sql.js';
import { dayChartRollup } from './day-chart-sql.js';
import { GENRE_TAGGED_PLAYS } from './scope-queries.js';
import { chartRollup } from './hour-chart-sql.js';

/**
 * The SQL of the year in review. Every query takes $1 server id, $2 year, $3 time zone and (those that can be
 * scoped to a user) $4 user id or null. The year runs from 1 January 00:00 to the next 1 January in the time
 * zone, so a play at 23:30 on 31 December in Paris belongs to that year even though it is 22:30 UTC.
 */
const YEAR_START = `make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text)`;
const YEAR_END = `make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)`;
const PLAYS_OF_YEAR = `server_id = $1 AND started_at >= ${YEAR_START} AND started_at < ${YEAR_END} AND ($4::text IS NULL OR user_id = $4)`;

/** 1 January 00:00 UTC of the year and of the next: the edges of the UTC months the rollups hold. */
const UTC_YEAR = `make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC')`;
const UTC_NEXT_YEAR = `make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC')`;

/**
 * The plays (item_id, series_id, played_seconds, weight w) that turn the year's UTC months into the year in the
 * zone: between the zone's 1 January and 1 January UTC, added when the zone is ahead of UTC (w = 1) and
 * subtracted when it is behind (w = -1), at both ends; at most 14 hours each, from the history ($4: a user or
 * null). An empty range when the two instants are in the other order.
 */
const YEAR_EDGE_PLAYS = [
  [YEAR_START, UTC_YEAR, 1],
  [UTC_YEAR, YEAR_START, -1],
  [UTC_NEXT_YEAR, YEAR_END, 1],
  [YEAR_END, UTC_NEXT_YEAR, -1],
]
  .map(
    ([from, to, w]) => `SELECT item_id, series_id, played_seconds, ${w} AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= ${from} AND started_at < ${to}`,
  )
  .join('\n       UNION ALL ');

export const YEAR_TOP_LIMIT = 5;

/**
 * Names the rows of `ranked` (kind 'item', 'series' or 'genre'; id, plays, seconds): from the items table or,
 * for an item a sync removed, from one of its plays.
 */
const NAMED_RANKS = `SELECT r.kind, r.id, r.plays, r.seconds,
       CASE WHEN r.kind = 'genre' THEN r.id ELSE COALESCE(i.name, named.name) END AS name,
       CASE WHEN r.kind = 'series' THEN 'Series' ELSE COALESCE(i.type, named.type) END AS type
     FROM ranked r
     LEFT JOIN items i ON r.kind <> 'genre' AND i.server_id = $1 AND i.id = r.id
     LEFT JOIN LATERAL (
       SELECT CASE WHEN r.kind = 'series' THEN h.series_name ELSE h.item_name END AS name, h.item_type AS type
       FROM playback_history h
       WHERE r.kind <> 'genre' AND i.id IS NULL AND h.server_id = $1 AND (CASE WHEN r.kind = 'series' THEN h.series_id ELSE h.item_id END) = r.id
       LIMIT 1
     ) AS named ON true
     ORDER BY r.kind, r.seconds DESC, r.plays DESC, name`;

export interface Figures {
  plays: number;
  seconds: number;
}

/**
 * A user's totals, busiest day and busiest hour for the year, from their plays (the rollups have no user):
 * counted once per local day and hour (at most 8,784 cells), then summed by day and by hour of the day.
 */
export async function userYearFromHistory(db: Database, serverId: string, year: number, timeZone: string, userId: string) {
  const rows = await db.query<{ kind: string; key: string; plays: number; seconds: number }>(
    `WITH cells AS MATERIALIZED (
       SELECT date_trunc('hour', started_at AT TIME ZONE $3::text) AS local, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM playback_history WHERE ${PLAYS_OF_YEAR} GROUP BY 1
     ), days AS (
       SELECT local::date AS day, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM cells GROUP BY 1
     ), hours AS (
       SELECT extract(hour FROM local)::int AS hour, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM cells GROUP BY 1
     )
     SELECT 'total' AS kind, '' AS key, COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(seconds), 0)::bigint AS seconds FROM cells
     UNION ALL (SELECT 'day', to_char(day, 'YYYY-MM-DD'), plays, seconds FROM days ORDER BY seconds DESC, plays DESC, day LIMIT 1)
     UNION ALL (SELECT 'hour', hour::text, plays, seconds FROM hours ORDER BY seconds DESC, plays DESC, hour LIMIT 1)`,
    [serverId, year, timeZone, userId],
  );
  return shapeBusiest(rows);
}

/** The year's first moment and the next year's, in the zone. */
async function yearBounds(db: Database, year: number, timeZone: string): Promise<{ start: Date; end: Date }> {
  const [row] = await db.query<{ start: Date; end: Date }>(
    `SELECT make_timestamptz($1::int, 1, 1, 0, 0, 0, $2::text) AS start, make_timestamptz($1::int + 1, 1, 1, 0, 0, 0, $2::text) AS end`,
    [year, timeZone],
  );
  return row!;
}

/**
 * The server's figures for the year from the charts' levels (chartRollup: whole UTC hours from the library hour
 * rollup where an hour is one local day-and-hour, quarter hours elsewhere): totals, the busiest day and the
 * busiest hour of the day. A year reads about 8,800 hour rows per library.
 */
export async function serverYearFromCharts(db: Database, serverId: string, year: number, timeZone: string) {
  const cells = chartRollup({
    start: YEAR_START,
    end: YEAR_END,
    tz: '$3',
    separator: ' ',
    localKey: (local) => `to_char(${local}, 'YYYY-MM-DD"T"HH24')`,
  });
  const rows = await db.query<{ kind: string; key: string; plays: number; seconds: number }>(
    `WITH cells AS (${cells}), local AS (
       SELECT left(key, 10) AS day, substr(key, 12, 2)::int AS hour, plays, played_seconds AS seconds FROM cells
     ), days AS (
       SELECT day AS key, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM local GROUP BY 1
     ), hours AS (
       SELECT hour::text AS key, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM local GROUP BY hour
     )
     SELECT 'total' AS kind, '' AS key, COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(seconds), 0)::bigint AS seconds FROM local
     UNION ALL (SELECT 'day', key, plays, seconds FROM days ORDER BY seconds DESC, plays DESC, key LIMIT 1)
     UNION ALL (SELECT 'hour', key, plays, seconds FROM hours ORDER BY seconds DESC, plays DESC, key::int LIMIT 1)`,
    [serverId, year, timeZone],
  );
  return shapeBusiest(rows);
}

/**
 * The server's plays and watched seconds of the year (what a user's review compares with), from the cards'
 * month rows of playback methods (every play counts once there) plus or minus the plays at the year's edges.
 */
export async function serverTotalsOfYear(db: Database, serverId: string, year: number, timeZone: string): Promise<Figures> {
  const [row] = await db.query<{ plays: number; seconds: string }>(
    `WITH counted AS (
       SELECT plays, played_seconds AS seconds FROM play_card_rollups
       WHERE server_id = $1 AND kind = 'method' AND span = 'month' AND bucket >= ${UTC_YEAR} AND bucket < ${UTC_NEXT_YEAR}
       UNION ALL SELECT w, w * played_seconds FROM (${YEAR_EDGE_PLAYS}) AS edges
     )
     SELECT COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(seconds), 0)::bigint AS seconds FROM counted`,
    [serverId, year, timeZone, null],
  );
  return { plays: row?.plays ?? 0, seconds: Number(row?.seconds ?? 0) };
}

/**
 * The server's figures for the year that is going on (it started and ends after now): the day and hour charts'
 * own levels for a window from 1 January in the zone to now (dayChartRollup: one day-slots row per library
 * and UTC day; chartRollup of a time of day: 96 month × quarter rows per library and month), which hold exactly the year's plays
 * so far. A past year needs an end: serverYearFromCharts.
 */
export async function serverYearSoFarFromCharts(db: Database, serverId: string, year: number, timeZone: string) {
  const sep = '\u0001';
  const options = (localKey: (local: string) => string) => ({ start: YEAR_START, tz: '$3', separator: sep, localKey });
  const rows = await db.query<{ kind: string; key: string; plays: number; seconds: number }>(
    `WITH day_cells AS (${dayChartRollup(options((local) => `to_char(${local}::date, 'YYYY-MM-DD')`))}),
     hour_cells AS (${chartRollup({ ...options((local) => `extract(hour FROM ${local})::int::text`), timeOfDay: true })}),
     days AS (
       SELECT split_part(key, '${sep}', 1) AS key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS seconds FROM day_cells GROUP BY 1
     ), hours AS (
       SELECT split_part(key, '${sep}', 1) AS key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS seconds FROM hour_cells GROUP BY 1
       HAVING sum(plays) > 0
     )
     SELECT 'total' AS kind, '' AS key, COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(seconds), 0)::bigint AS seconds FROM days
     UNION ALL (SELECT 'day', key, plays, seconds FROM days ORDER BY seconds DESC, plays DESC, key LIMIT 1)
     UNION ALL (SELECT 'hour', key, plays, seconds FROM hours ORDER BY seconds DESC, plays DESC, key::int LIMIT 1)`,
    [serverId, year, timeZone],
  );
  return shapeBusiest(rows);
}

/** The server's totals, busiest day and busiest hour of the year: from the charts' own levels while it goes on. */
export async function serverYear(db: Database, serverId: string, year: number, timeZone: string) {
  const { start, end } = await yearBounds(db, year, timeZone);
  const now = Date.now();
  return start.getTime() <= now && now < end.getTime()
    ? serverYearSoFarFromCharts(db, serverId, year, timeZone)
    : serverYearFromCharts(db, serverId, year, timeZone);
}

function shapeBusiest(rows: Array<{ kind: string; key: string; plays: number; seconds: number }>) {
  const of = (kind: string) => rows.find((row) => row.kind === kind);
  const total = of('total');
  const day = of('day');
  const hour = of('hour');
  return {
    total: { plays: total?.plays ?? 0, seconds: Number(total?.seconds ?? 0) },
    busiestDay: day ? { date: day.key, plays: day.plays, seconds: Number(day.seconds) } : null,
    busiestHour: hour ? { hour: Number(hour.key), plays: hour.plays, seconds: Number(hour.seconds) } : null,
  };
}

/** Users who played at least once in the year: one index probe per user, not a scan of the year. */
export async function activeUsers(db: Database, serverId: string, year: number, timeZone: string): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM media_users u WHERE u.server_id = $1 AND EXISTS (
       SELECT 1 FROM playback_history h WHERE h.server_id = $1 AND h.user_id = u.id
         AND h.started_at >= ${YEAR_START} AND h.started_at < ${YEAR_END})`,
    [serverId, year, timeZone],
  );
  return row?.count ?? 0;
}

export interface Ranked extends Figures {
  id: string;
  name: string;
  type: string | null;
}

/**
 * The top movies and tracks (what is not an episode) and the top series, by watched time then plays, from one
 * pass over the year's plays (a user's; the server's reads play_year_tops), counted per item or series at once
 * (per item, then per series, took 78 ms instead of 48 for the busiest user at 5 M; grouped by the kind's text
 * instead of series_id IS NULL, the planner sorted the plays on disk: 127 ms). That pass reads only
 * columns the covering indexes carry (history_started_cover, or history_user_cover for a user), so it never
 * visits the table's rows; names come from the items table (or, for an item a sync removed, from one of its plays).
 */
export async function topsOfYear(db: Database, serverId: string, year: number, timeZone: string, userId: string | null) {
  const rows = await db.query<{ kind: string; id: string; name: string | null; type: string | null; plays: number; seconds: number }>(
    `WITH per_key AS MATERIALIZED (
       SELECT ${YEAR_TOP_KIND()} AS kind, ${YEAR_TOP_KEY()} AS id, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM playback_history WHERE ${PLAYS_OF_YEAR} GROUP BY series_id IS NULL, ${YEAR_TOP_KEY()}
     ), ranked AS (
       (SELECT * FROM per_key WHERE kind = 'item' ORDER BY seconds DESC, plays DESC, id LIMIT ${YEAR_TOP_LIMIT})
       UNION ALL (SELECT * FROM per_key WHERE kind = 'series' ORDER BY seconds DESC, plays DESC, id LIMIT ${YEAR_TOP_LIMIT})
     )
     ${NAMED_RANKS}`,
    [serverId, year, timeZone, userId],
  );
  return { items: namedOf(rows, 'item'), series: namedOf(rows, 'series') };
}

/** The named rows of one kind ('item' or 'series'), as the review shows them. */
function namedOf(
  rows: Array<{ kind: string; id: string; name: string | null; type: string | null; plays: number; seconds: number }>,
  kind: string,
): Ranked[] {
  return rows
    .filter((row) => row.kind === kind)
    .map((row) => ({ id: row.id, name: row.name ?? row.id, type: row.type, plays: row.plays, seconds: Number(row.seconds) }));
}

type Count = { plays: number; seconds: number };

/** The review's order of a top: watched time, then plays, then key. */
const byTime = (a: { key: string } & Count, b: { key: string } & Count) =>
  b.seconds - a.seconds || b.plays - a.plays || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The server's top items (plays without a series: movies, tracks) and series of the year from play_year_tops
 * (0031: UTC year × item or series), equal to topsOfYear. The year in the zone is the UTC year plus or minus the
 * plays at its edges (at most 14 hours at each end, from the history). Each list is read in watched-time order
 * (play_year_tops_ranked) to a depth, then deeper, until the fifth best exact count is above the last row read:
 * a key not read yet watched at most that much in the UTC year, and every key the edges add to is counted
 * whatever its rank, so the rest only lose.
 */
export async function topsFromYearRollup(db: Database, serverId: string, year: number, timeZone: string, firstDepth = 4 * YEAR_TOP_LIMIT) {
  const edges = await db.query<{ kind: string; key: string; plays: number; seconds: string; added: boolean }>(
    `SELECT ${YEAR_TOP_KIND()} AS kind, ${YEAR_TOP_KEY()} AS key, sum(w)::int AS plays, sum(w * played_seconds)::bigint AS seconds,
       bool_or(w > 0) AS added
     FROM (${YEAR_EDGE_PLAYS}) AS edges GROUP BY 1, 2`,
    [serverId, year, timeZone, null],
  );
  const [items, series] = await Promise.all(
    (['item', 'series'] as const).map((kind) =>
      yearTopOf(
        db,
        serverId,
        year,
        kind,
        new Map(edges.filter((edge) => edge.kind === kind).map((edge) => [edge.key, { ...edge, seconds: Number(edge.seconds) }])),
        firstDepth,
      ),
    ),
  );
  const ranked = [...items!.map((row) => ({ kind: 'item', ...row })), ...series!.map((row) => ({ kind: 'series', ...row }))];
  const rows = await db.query<{ kind: string; id: string; name: string | null; type: string | null; plays: number; seconds: number }>(
    `WITH ranked AS (SELECT * FROM json_to_recordset($2::json) AS r(kind text, id text, plays int, seconds bigint))
     ${NAMED_RANKS}`,
    [serverId, JSON.stringify(ranked)],
  );
  return { items: namedOf(rows, 'item'), series: namedOf(rows, 'series') };
}

/** One top of topsFromYearRollup: `edges` are the plays and seconds the zone adds (or takes) per key. */
async function yearTopOf(
  db: Database,
  serverId: string,
  year: number,
  kind: 'item' | 'series',
  edges: Map<string, Count & { added: boolean }>,
  firstDepth: number,
): Promise<Array<{ id: string } & Count>> {
  const added = [...edges.entries()].filter(([, edge]) => edge.added).map(([key]) => key);
  for (let depth = firstDepth; ; depth *= 4) {
    // The head of the list and, wherever they rank, the keys the edges add to (their UTC year may hold no play).
    const rows = await db.query<{ key: string; plays: number; seconds: string; head: boolean }>(
      `(SELECT key, plays, played_seconds AS seconds, true AS head FROM play_year_tops
        WHERE server_id = $1 AND year = $2 AND kind = $3 ORDER BY played_seconds DESC, plays DESC, key LIMIT ${depth})
       UNION ALL
       SELECT key, plays, played_seconds, false FROM play_year_tops
       WHERE server_id = $1 AND year = $2 AND kind = $3 AND key = ANY($4::text[])`,
      [serverId, year, kind, added],
    );
    const head = rows.filter((row) => row.head);
    const counted = new Map<string, { key: string } & Count>();
    for (const row of rows) counted.set(row.key, { key: row.key, plays: row.plays, seconds: Number(row.seconds) });
    for (const key of added) if (!counted.has(key)) counted.set(key, { key, plays: 0, seconds: 0 });
    for (const row of counted.values()) {
      const edge = edges.get(row.key);
      if (edge) Object.assign(row, { plays: row.plays + edge.plays, seconds: row.seconds + edge.seconds });
    }
    const sorted = [...counted.values()].filter((row) => row.plays > 0).sort(byTime);
    const fifth = sorted[YEAR_TOP_LIMIT - 1];
    const bound = head.length < depth ? -1 : Number(head[head.length - 1]!.seconds);
    if (bound < 0 || (fifth && fifth.seconds > bound)) {
      return sorted.slice(0, YEAR_TOP_LIMIT).map(({ key, plays, seconds }) => ({ id: key, plays, seconds }));
    }
  }
}

/**
 * The top genres of the year (the genres of each item played, or of its series when it has none), from the
 * genre × UTC month rollup (play_genre_rollups, 0028; user_id '' is the server): the year's UTC months, plus
 * the plays between the zone's 1 January and 1 January UTC when the zone is ahead of UTC, minus them when it is
 * behind (at most 14 hours at each end, from the history), so the year runs from 1 January 00:00 in the zone.
 */
export async function genresOfYear(db: Database, serverId: string, year: number, timeZone: string, userId: string | null) {
  const rows = await db.query<{ genre: string; plays: number; seconds: number }>(
    `WITH per_item AS (
       SELECT item_id, series_id, sum(w)::int AS plays, sum(w * played_seconds)::bigint AS seconds FROM (${YEAR_EDGE_PLAYS}) AS edges
       GROUP BY item_id, series_id
     ), ${GENRE_TAGGED_PLAYS}, counted AS (
       SELECT genre, plays, played_seconds AS seconds FROM play_genre_rollups
       WHERE server_id = $1 AND user_id = COALESCE($4::text, '') AND month >= ${UTC_YEAR} AND month < ${UTC_NEXT_YEAR}
       UNION ALL SELECT genre, plays, seconds FROM tagged
     )
     SELECT genre, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM counted GROUP BY genre HAVING sum(plays) > 0
     ORDER BY 3 DESC, 2 DESC, 1 LIMIT ${YEAR_TOP_LIMIT}`,
    [serverId, year, timeZone, userId],
  );
  return rows.map((row) => ({ genre: row.genre, plays: row.plays, seconds: Number(row.seconds) }));
}

/**
 * The longest binge: a run of one user's plays where each starts at most BINGE_GAP_MINUTES after the previous
 * one ended (its start plus its watched seconds), the run with the most watched seconds (then plays, then the
 * earliest), of at least two plays. Only the year's plays count: a run that crosses an edge of the year is cut
 * there. The runs come from play_binge_runs (0028): those inside the year by the index of the longest runs;
 * for each user, the run that crosses 1 January (the last run starting before it) and the one that crosses the
 * next, cut to the year from the history (the plays of one run inside the year still form one run). Only the
 * winning run's plays are read for its title (the series or film it is mostly made of).
 */
export async function longestBinge(db: Database, serverId: string, year: number, timeZone: string, userId: string | null) {
  // The last run of a user that starts before the edge, when it goes on after it.
  const crossing = (edge: string) => `SELECT r.* FROM users u CROSS JOIN LATERAL (
       SELECT * FROM play_binge_runs r WHERE r.server_id = $1 AND r.user_id = u.user_id AND r.started_at < ${edge}
       ORDER BY r.started_at DESC LIMIT 1) AS r
     WHERE r.last_started_at >= ${edge}`;
  const [run] = await db.query<{ user_id: string; started_at: Date; ended_at: Date; plays: number; seconds: number }>(
    `WITH users AS (
       SELECT $4::text AS user_id WHERE $4::text IS NOT NULL
       UNION ALL SELECT key FROM play_totals WHERE server_id = $1 AND scope = 'user' AND $4::text IS NULL
     ), inside AS (
       SELECT user_id, started_at, ended_at, plays, played_seconds AS seconds FROM play_binge_runs
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4)
         AND started_at >= ${YEAR_START} AND last_started_at < ${YEAR_END}
       ORDER BY played_seconds DESC, plays DESC, started_at LIMIT 1
     ), cut AS (
       SELECT c.user_id, part.* FROM (${crossing(YEAR_START)} UNION ${crossing(YEAR_END)}) AS c
       CROSS JOIN LATERAL (
         SELECT min(h.started_at) AS started_at, max(${PLAY_END('h.')}) AS ended_at, count(*)::int AS plays,
           sum(h.played_seconds)::bigint AS seconds
         FROM playback_history h WHERE h.server_id = $1 AND h.user_id = c.user_id
           AND h.started_at >= GREATEST(c.started_at, ${YEAR_START}) AND h.started_at <= c.last_started_at AND h.started_at < ${YEAR_END}
       ) AS part
     )
     SELECT * FROM inside UNION ALL SELECT * FROM cut WHERE plays > 1
     ORDER BY seconds DESC, plays DESC, started_at LIMIT 1`,
    [serverId, year, timeZone, userId],
  );
  if (!run) return null;
  const [named] = await db.query<{ user_name: string; title: string }>(
    `SELECT max(user_name) AS user_name, mode() WITHIN GROUP (ORDER BY COALESCE(series_name, item_name)) AS title
     FROM playback_history WHERE server_id = $1 AND user_id = $2 AND started_at >= $3 AND started_at <= $4`,
    [serverId, run.user_id, run.started_at, run.ended_at],
  );
  return {
    userId: run.user_id,
    userName: named?.user_name ?? run.user_id,
    start: new Date(run.started_at).toISOString(),
    end: new Date(run.ended_at).toISOString(),
    plays: run.plays,
    seconds: Number(run.seconds),
    title: named?.title ?? '',
  };
}

/** The first and the last play of the year. */
export async function firstAndLast(db: Database, serverId: string, year: number, timeZone: string, userId: string | null) {
  const rows = await db.query<{ kind: string; started_at: Date; title: string; user_name: string }>(
    `(SELECT 'first' AS kind, started_at, COALESCE(series_name || ' - ' || item_name, item_name) AS title, user_name
       FROM playback_history WHERE ${PLAYS_OF_YEAR} ORDER BY started_at, id LIMIT 1)
     UNION ALL
     (SELECT 'last', started_at, COALESCE(series_name || ' - ' || item_name, item_name), user_name
       FROM playback_history WHERE ${PLAYS_OF_YEAR} ORDER BY started_at DESC, id DESC LIMIT 1)`,
    [serverId, year, timeZone, userId],
  );
  const shape = (kind: string) => {
    const row = rows.find((r) => r.kind === kind);
    return row ? { date: new Date(row.started_at).toISOString(), title: row.title, userName: row.user_name } : null;
  };
  return { first: shape('first'), last: shape('last') };
}
