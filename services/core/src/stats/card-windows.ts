import type { Database } from '../db/database.js';
import { ALL_TIME_BUCKET, CARD_KINDS, type CardKind } from '../history/rollup-sql.js';
import { daysWindowStart, monthCeil } from './time-window.js';

/**
 * Plays and seconds per key of a card (play_card_rollups, migration 0018) over a days window, exact at any
 * window start: whole UTC months from the month span, the whole UTC days before the first whole month from the
 * day span, and the plays before the first UTC midnight (the window starts at a local midnight) from
 * playback_history. A 365-day window reads about 12 month rows and up to 31 day rows per key. A window that holds
 * every play of the server (nothing started before it: all time, say) reads the all-time span instead, one row
 * per key (500 users: 500 rows, not 18,500 month rows); the unused branches cost nothing (one-time filters).
 * "Nothing started before it" is the first play's start (one end of an index), not NOT EXISTS, which the planner
 * answered with a sequential scan: quick when old plays come first in the table, the whole table otherwise.
 *
 * `$1` server id, `$2` zone, `$3` days; with `keysParam`, only those keys (a text[] placeholder). With `start`
 * (SQL), the window runs from that moment to now (an hours window, say) instead of from a local midnight.
 */
export function cardWindowSql(kind: CardKind, keysParam?: string, start = daysWindowStart('$2', '$3')): string {
  const { key, filter } = CARD_KINDS[kind];
  const rollupKeys = keysParam ? `AND key = ANY(${keysParam})` : '';
  const historyKeys = keysParam ? `AND ${key} = ANY(${keysParam})` : '';
  return `WITH bounds AS MATERIALIZED (
      SELECT start, days, ${monthCeil('days')} AS months,
        COALESCE((SELECT min(started_at) FROM playback_history WHERE server_id = $1) >= start, true) AS everything
      FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 86400) * 86400) AS days
            FROM (SELECT ${start} AS start) AS s) AS d
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT key, plays, played_seconds FROM play_card_rollups
        WHERE server_id = $1 AND kind = '${kind}' AND span = 'all' AND bucket = ${ALL_TIME_BUCKET} AND (SELECT everything FROM bounds) ${rollupKeys}
      UNION ALL
      SELECT key, plays, played_seconds FROM play_card_rollups
        WHERE server_id = $1 AND kind = '${kind}' AND span = 'month' AND bucket >= (SELECT months FROM bounds) AND NOT (SELECT everything FROM bounds) ${rollupKeys}
      UNION ALL
      SELECT key, plays, played_seconds FROM play_card_rollups
        WHERE server_id = $1 AND kind = '${kind}' AND span = 'day' AND bucket >= (SELECT days FROM bounds) AND bucket < (SELECT months FROM bounds)
          AND NOT (SELECT everything FROM bounds) ${rollupKeys}
      UNION ALL
      SELECT ${key}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (SELECT start FROM bounds) AND started_at < (SELECT days FROM bounds)
          AND NOT (SELECT everything FROM bounds) AND ${filter} ${historyKeys}
    ) AS parts GROUP BY key HAVING sum(plays) > 0`;
}

export interface WindowCount {
  key: string;
  plays: number;
  viewers: number;
  played_seconds: number;
}

export type RankBy = 'plays' | 'viewers';

/** The cards' order before names break ties: plays (or distinct viewers, then plays), then seconds. */
const ranking = (by: RankBy) => (a: WindowCount, b: WindowCount) =>
  (by === 'viewers' ? b.viewers - a.viewers : 0) || b.plays - a.plays || b.played_seconds - a.played_seconds;

/** What the walk ranks a key on (and what its lists are sorted by). */
const rankValue = (by: RankBy, row: WindowCount) => (by === 'viewers' ? row.viewers : row.plays);

/** How deep the walk below reads each list at most before it gives up (the caller then counts every key). */
const MAX_DEPTH = 5_000;
/** Windows touching more UTC months than this are bounded by the all-time list instead of one list per month. */
const MAX_MONTH_LISTS = 13;
/**
 * Windows whose UTC months hold fewer plays than this (of every kind) are left to the caller, which counts them
 * from the history: a few thousand index entries cost less than a walk, whose lists are flat when a month has
 * far fewer plays than the library has items (30 days at 100 k plays: the fifth best has two plays, and the walk
 * counted some 400 keys).
 */
export const SHORT_HISTORY_PLAYS = 10_000;

/**
 * The keys of an item card that can be in its top `size` over a days window, with their counts: every key
 * whose rank is at least the size-th best's, so ties are left for the caller to break by name. Undefined when
 * the walk would be long, or the window's months hold fewer than `historyBelow` plays: the caller counts every key
 * from the history instead.
 *
 * A threshold walk (Fagin's threshold algorithm) over lists of keys by plays, read from the month span of
 * play_card_rollups (one list per UTC month the window touches; its month row holds every play of the window in
 * that month) or, for long windows, from the all-time span. At each depth the window counts of the keys met so
 * far are exact (cardWindowSql), and no key not met yet plays more in the window than the sum of the lists'
 * values at that depth (a list read to its end adds nothing); no key has more distinct viewers than plays.
 * Two more lists bound the keys not met, each once its own keys are counted: ranked by viewers, the keys by
 * their viewers ever (play_card_viewer_counts, migration 0020; a series has many plays per viewer, so the plays
 * alone bounded it loosely and the walk read deep); ranked by plays, the keys by their plays ever (the all-time
 * span: no window plays a key more than all time). A month list is flat when a library has far more items than
 * a month has plays (tracks at 100 k plays: every month's list is ones and twos, so the sum of thirteen of them
 * stayed above the fifth best until every list was read to its end). Each is counted only while its bound is
 * the lower one. The walk stops once the size-th best window count (plays or viewers) is above the lowest bound.
 * Exact.
 *
 * Ranked by viewers, the walk counts only each key's window viewers (index ranges of play_card_viewers); plays
 * and seconds, which only order keys tied on viewers, are read at the end for the keys that can be in the answer
 * (those at or above the size-th best's viewers), not for every key met: each key's plays are a dozen month rows
 * and a month of day rows, scattered over the table's pages, so reading them for every key met was most of a
 * cold call's page reads. For the same reason a walk by plays over more than three months starts at depth 10,
 * not 25: at 5 M plays the fifth best of a 365-day window is above the thirteen lists' sum at depth 10 for every
 * kind, and each key counted costs a few dozen page reads. Over a month or two the lists hold far more than the
 * window (a whole month for a few days of it), so depth 10 is too shallow there and would cost a second round;
 * by viewers, a key counted is two index ranges, and the ties at the top need depth.
 */
export async function topOfWindow(
  db: Database,
  serverId: string,
  tz: string,
  days: number,
  kind: 'Movie' | 'Series' | 'Audio',
  by: RankBy,
  size: number,
  firstDepth?: number,
  historyBelow = SHORT_HISTORY_PLAYS,
): Promise<WindowCount[] | undefined> {
  // The window's first moment, over `$2` (zone) and `$3` (days); it runs to now.
  const first = daysWindowStart('$2', '$3');
  const seen = new Map<string, WindowCount>();
  // $1 (the server) only keeps the placeholders those of cardWindowSql.
  // A week's walk by plays starts as deep as its month lists are loose (weekStartDepth): the plays of the UTC
  // days the window touches, from the method kind's day rows (a few per day), against the months' plays.
  const weekByPlays = days <= WEEK_DAYS && by === 'plays';
  const [{ lists, everything, months_plays, days_plays }] = (await db.query<{
    lists: string[];
    everything: boolean;
    months_plays: number;
    days_plays: number | null;
  }>(
    `SELECT CASE WHEN count(*) > ${MAX_MONTH_LISTS} THEN ARRAY['all'] ELSE array_agg(m::text) END AS lists,
       COALESCE((SELECT min(started_at) FROM playback_history WHERE server_id = $1) >= ${first}, true) AS everything,
       (SELECT COALESCE(sum(plays), 0) FROM play_card_rollups WHERE server_id = $1 AND kind = 'method' AND span = 'month'
         AND bucket >= date_trunc('month', ${first} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS months_plays,
       ${
         weekByPlays
           ? `(SELECT COALESCE(sum(plays), 0) FROM play_card_rollups WHERE server_id = $1 AND kind = 'method' AND span = 'day'
         AND bucket >= date_trunc('day', ${first} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int`
           : 'NULL::int'
       } AS days_plays
     FROM generate_series(
       date_trunc('month', ${first} AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
     WHERE $1::uuid IS NOT NULL`,
    [serverId, tz, days],
  )) as [{ lists: string[]; everything: boolean; months_plays: number; days_plays: number | null }];
  if (everything) return by === 'viewers' ? allTimeByViewers(db, serverId, kind, size) : allTimeByPlays(db, serverId, kind, size);
  if (months_plays < historyBelow) return undefined;
  const span = lists[0] === 'all' ? 'all' : 'month';
  // Over months, the all-time list bounds keys by plays too (over all time it is the walk's own list).
  const withAllTime = by === 'plays' && span === 'month';
  let growth = 4;
  const startingDepth = firstDepth ?? (weekByPlays ? weekStartDepth(months_plays, days_plays ?? 0) : startDepth(days, by, lists.length));
  for (let depth = startingDepth; ; depth = Math.min(depth * growth, MAX_DEPTH)) {
    // The first `depth` keys of each list; a list's last value bounds every key below it in that list. The second
    // lists are read at the same time: keys by viewers ever (a query of its own), or keys by plays ever (the
    // all-time span, as one more list 'all' of the same statement: no second connection, no second round trip).
    const [read, viewerHeads] = await Promise.all([
      db.query<{ list: string; key: string; value: string }>(
        `SELECT m.list, l.key, l.value FROM unnest($3::text[]) AS m(list)
         CROSS JOIN LATERAL (
           SELECT key, plays AS value FROM play_card_rollups
           WHERE server_id = $1 AND kind = $2 AND span = '${span}'
             AND bucket = ${span === 'all' ? ALL_TIME_BUCKET : `(m.list::timestamp AT TIME ZONE 'UTC')`}
           ORDER BY plays DESC, key LIMIT ${depth}
         ) AS l
         ${
           withAllTime
             ? `UNION ALL
         SELECT 'all', key, plays FROM (
           SELECT key, plays FROM play_card_rollups WHERE server_id = $1 AND kind = $2 AND span = 'all' AND bucket = ${ALL_TIME_BUCKET}
           ORDER BY plays DESC, key LIMIT ${depth}
         ) AS a`
             : ''
         }`,
        [serverId, kind, span === 'all' ? ['all'] : lists],
      ),
      by === 'viewers'
        ? db.query<{ key: string; value: number }>(
            `SELECT key, viewers AS value FROM play_card_viewer_counts WHERE server_id = $1 AND kind = $2 ORDER BY viewers DESC, key LIMIT ${depth}`,
            [serverId, kind],
          )
        : Promise.resolve([]),
    ]);
    const heads = withAllTime ? read.filter((head) => head.list !== 'all') : read;
    const allTimeHeads = withAllTime ? read.filter((head) => head.list === 'all') : [];
    let threshold = 0;
    const perList = new Map<string, { count: number; last: number }>();
    for (const head of heads) perList.set(head.list, { count: (perList.get(head.list)?.count ?? 0) + 1, last: Number(head.value) });
    for (const list of perList.values()) if (list.count === depth) threshold += list.last;
    // A key not met in the month lists has at most `threshold` plays in the window; a key not met in the viewer
    // list, at most its last value of viewers ever; a key not met in the all-time list, at most its last value of
    // plays (0 once a list is read to its end: every key it holds was met). Each bound holds once that list's keys
    // are counted, so the walk counts the keys of the list whose bound is the lowest and only those: over a month
    // the plays bound is often lower, and counting the most played or most viewed ever would be waste; over a
    // year of flat month lists, counting every month's head would be (thirteen lists of the same depth).
    const second = by === 'viewers' ? viewerHeads : allTimeHeads;
    const secondBound = second.length === depth ? Number(second[depth - 1]!.value) : 0;
    const bySecond = (by === 'viewers' || withAllTime) && secondBound < threshold;
    if (bySecond) threshold = secondBound;
    // By viewers, double the depth rather than quadruple it. Walking by viewers ever, ties at the top (every user
    // saw the most popular series) end the walk soon after the tied keys. Walking by month lists, their plays bound
    // viewers loosely and a round that misses misses narrowly: movies over 365 days at 100 k plays stopped at depth
    // 50 with 467 keys counted where depth 100 counted 920 (thirteen lists); series over 30 days at 5 M, 54 for 110.
    growth = by === 'viewers' ? 2 : 4;
    const keys = [...new Set((bySecond ? second : heads).map((head) => head.key))].filter((key) => !seen.has(key));
    if (keys.length > 0) {
      for (const key of keys) seen.set(key, { key, plays: 0, viewers: 0, played_seconds: 0 });
      if (by === 'viewers') {
        const counts = await db.query<{ key: string; viewers: number }>(
          `SELECT k AS key, ${windowViewersSql(kind, days, 'k')} AS viewers FROM unnest($4::text[]) AS k`,
          [serverId, tz, days, keys],
        );
        for (const row of counts) seen.get(row.key)!.viewers = Number(row.viewers);
      } else {
        for (const row of await windowCounts(db, serverId, tz, days, kind, keys)) seen.set(row.key, row);
      }
    }
    const sizeth = [...seen.values()]
      .map((row) => rankValue(by, row))
      .filter((value) => value > 0)
      .sort((a, b) => b - a)[size - 1];
    if (threshold === 0 || (sizeth !== undefined && sizeth > threshold)) break;
    if (depth >= MAX_DEPTH) return undefined;
  }
  if (by === 'plays')
    return atLeastSizeth(
      [...seen.values()].filter((row) => row.plays > 0),
      size,
      by,
    );
  // Ranked by viewers: the keys at or above the size-th best's viewers are the only ones that can be in the
  // answer (viewers come first in the order); their plays and seconds break the ties.
  const met = [...seen.values()].filter((row) => row.viewers > 0).sort((a, b) => b.viewers - a.viewers);
  const least = met[Math.min(size, met.length) - 1]?.viewers ?? 0;
  const candidates = met.filter((row) => row.viewers >= least);
  const counts = new Map(
    (
      await windowCounts(
        db,
        serverId,
        tz,
        days,
        kind,
        candidates.map((row) => row.key),
      )
    ).map((row) => [row.key, row]),
  );
  return atLeastSizeth(
    candidates.map((row) => ({ ...row, plays: counts.get(row.key)?.plays ?? 0, played_seconds: counts.get(row.key)?.played_seconds ?? 0 })),
    size,
    by,
  );
}

/** Windows of at most this many days start the walk deeper: their month lists hold several times the window. */
const WEEK_DAYS = 7;

/**
 * The walk's first depth. Over a week, a month list holds several times the window (a whole month for a week of
 * it), so its values fall below the fifth best's only far down: at 5 M plays depth 25 never ended a week's walk
 * (the second round went to 100). By plays see weekStartDepth (topOfWindow calls it instead); by viewers a key
 * is one index range, and series are tied closer (the fifth best's viewers are near the list's value at 50), so
 * it starts at 100. Over more than three months by plays, 10 (see topOfWindow); otherwise 25.
 */
function startDepth(days: number, by: RankBy, lists: number): number {
  if (days <= WEEK_DAYS) return 100;
  return by === 'plays' && lists > 3 ? 10 : 25;
}

/** A week's first depth by plays when its month lists hold about twice its plays (the middle of a month). */
const WEEK_DEPTH = 50;

/**
 * A week's first depth by plays, from how loose its month lists are: the months' plays over the plays of the UTC
 * days the window touches (r). A list's values fall about as one over the square root of the depth, and the
 * fifth best's plays scale with the window, so the depth that ends the walk grows as r²: in the middle of a month (r
 * about 2) depth 50 ends it; on 3 December at 5 M plays (the window's 8 UTC days 34,668 plays, November and
 * December 149,286: r = 4.3) depth 50 and 100 took a second round for some kinds, 200 none (each round reads the
 * lists again and counts every key met, a week of day rows each). Rounded up to a multiple of WEEK_DEPTH, at most
 * MAX_DEPTH. The walk is exact at any depth; this only spares rounds.
 */
export function weekStartDepth(monthsPlays: number, daysPlays: number): number {
  if (daysPlays <= 0) return WEEK_DEPTH;
  const looseness = monthsPlays / daysPlays;
  const depth = Math.ceil((looseness / 2) ** 2) * WEEK_DEPTH;
  return Math.min(Math.max(depth, WEEK_DEPTH), MAX_DEPTH);
}

/** Keys up to which the planner estimates a window count key by key (windowCounts). */
const ESTIMATED_KEYS = 100;

/** Plays and seconds of the given keys over the window (`$2` zone, `$3` days), from cardWindowSql. */
async function windowCounts(
  db: Database,
  serverId: string,
  tz: string,
  days: number,
  kind: CardKind,
  keys: string[],
): Promise<WindowCount[]> {
  if (keys.length === 0) return [];
  // A long list is given as a value the planner does not look into: estimating each key against the column's
  // statistics cost more than the read (275 movies over 365 days at 100 k plays: 5 ms of planning, 5 of reading).
  const keysParam = keys.length > ESTIMATED_KEYS ? '(SELECT $4::text[])::text[]' : '$4::text[]';
  const rows = await db.query<{ key: string; plays: number; played_seconds: string }>(cardWindowSql(kind, keysParam), [
    serverId,
    tz,
    days,
    keys,
  ]);
  return rows.map((row) => ({ key: row.key, plays: Number(row.plays), viewers: 0, played_seconds: Number(row.played_seconds) }));
}

/** Windows at least this long count a key's viewers as its viewers ever minus those whose last play is older. */
const LONG_WINDOW_DAYS = 180;

/**
 * Distinct viewers in the window ($1 server, $2 zone, $3 days) of the key in column `key` (SQL, one index range
 * per key): the pairs whose last play started in it. Over a long window most pairs of a popular key are in it,
 * so the pairs before it are the shorter index range: viewers ever minus those. A scalar per key, not a join:
 * the planner cannot know how many keys there are, and joined a grouped range scan to them in a nested loop
 * (once per key: 1.1 s for 700 keys at 100 k plays).
 */
function windowViewersSql(kind: CardKind, days: number, key: string): string {
  const start = daysWindowStart('$2', '$3');
  const pairs = (when: string) =>
    `(SELECT count(*)::int FROM play_card_viewers WHERE server_id = $1 AND kind = '${kind}' AND key = ${key} AND last_started_at ${when} ${start})`;
  if (days < LONG_WINDOW_DAYS) return pairs('>=');
  return `(COALESCE((SELECT viewers FROM play_card_viewer_counts WHERE server_id = $1 AND kind = '${kind}' AND key = ${key}), 0) - ${pairs('<')})`;
}

/**
 * Most popular over a window that holds every play of the server: each key's viewers ever are its viewers in
 * the window, so the answer is the head of play_card_viewer_counts down to the size-th count (ties included),
 * with plays and seconds from the all-time span, one primary-key lookup per key (LATERAL with a LIMIT keeps the
 * planner from hashing the whole all-time list: 74 k tracks, 25 ms).
 */
async function allTimeByViewers(db: Database, serverId: string, kind: CardKind, size: number): Promise<WindowCount[]> {
  const rows = await db.query<{ key: string; viewers: number; plays: number; played_seconds: string }>(
    `SELECT c.key, c.viewers, a.plays, a.played_seconds FROM play_card_viewer_counts c
     CROSS JOIN LATERAL (
       SELECT plays, played_seconds FROM play_card_rollups
       WHERE server_id = $1 AND kind = $2 AND span = 'all' AND bucket = ${ALL_TIME_BUCKET} AND key = c.key LIMIT 1
     ) AS a
     WHERE c.server_id = $1 AND c.kind = $2 AND c.viewers > 0 AND c.viewers >= COALESCE((
       SELECT viewers FROM play_card_viewer_counts WHERE server_id = $1 AND kind = $2 AND viewers > 0
       ORDER BY viewers DESC, key OFFSET ${size - 1} LIMIT 1), 1)`,
    [serverId, kind],
  );
  return atLeastSizeth(
    rows.map((row) => ({
      key: row.key,
      viewers: Number(row.viewers),
      plays: Number(row.plays),
      played_seconds: Number(row.played_seconds),
    })),
    size,
    'viewers',
  );
}

/**
 * Most viewed over a window that holds every play of the server: the window's counts are the all-time span's,
 * so the answer is that list's head down to the size-th best plays (ties included), one index range, instead of
 * a walk that counts each key's months.
 */
async function allTimeByPlays(db: Database, serverId: string, kind: CardKind, size: number): Promise<WindowCount[]> {
  const allTime = `server_id = $1 AND kind = $2 AND span = 'all' AND bucket = ${ALL_TIME_BUCKET} AND plays > 0`;
  const rows = await db.query<{ key: string; plays: number; played_seconds: string }>(
    `SELECT key, plays, played_seconds FROM play_card_rollups
     WHERE ${allTime} AND plays >= COALESCE((SELECT plays FROM play_card_rollups WHERE ${allTime} ORDER BY plays DESC, key OFFSET ${size - 1} LIMIT 1), 1)`,
    [serverId, kind],
  );
  return atLeastSizeth(
    rows.map((row) => ({ key: row.key, viewers: 0, plays: Number(row.plays), played_seconds: Number(row.played_seconds) })),
    size,
    'plays',
  );
}

/** Rows ranked as a card ranks them, cut after the size-th best but keeping every row tied with it. */
function atLeastSizeth(rows: WindowCount[], size: number, by: RankBy): WindowCount[] {
  const order = ranking(by);
  const sorted = [...rows].sort(order);
  const cut = sorted[size - 1];
  return cut ? sorted.filter((row) => order(row, cut) <= 0) : sorted;
}
