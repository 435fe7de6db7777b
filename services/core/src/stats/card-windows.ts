import type { Database } from '../db/database.js';
import { ALL_TIME_BUCKET, CARD_KINDS, type CardKind } from '../history/rollup-sql.js';
import { daysWindowStart, monthCeil } from './time-window.js';

/**
 * Plays and seconds per key of a card (play_card_rollups, migration 0018) over a days window, exact at any
 * window start: whole UTC months from the month span, the whole UTC days before the first whole month from the
 * day span, and the plays before the first UTC midnight (the window starts at a local midnight) from
 * playback_history. A 365-day window reads about 12 month rows and up to 31 day rows per key.
 *
 * `$1` server id, `$2` zone, `$3` days; with `keysParam`, only those keys (a text[] placeholder). With `start`
 * (SQL), the window runs from that moment to now (an hours window, say) instead of from a local midnight.
 */
export function cardWindowSql(kind: CardKind, keysParam?: string, start = daysWindowStart('$2', '$3')): string {
  const { key, filter } = CARD_KINDS[kind];
  const rollupKeys = keysParam ? `AND key = ANY(${keysParam})` : '';
  const historyKeys = keysParam ? `AND ${key} = ANY(${keysParam})` : '';
  return `WITH bounds AS MATERIALIZED (
      SELECT start, days, ${monthCeil('days')} AS months
      FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 86400) * 86400) AS days
            FROM (SELECT ${start} AS start) AS s) AS d
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT key, plays, played_seconds FROM play_card_rollups
        WHERE server_id = $1 AND kind = '${kind}' AND span = 'month' AND bucket >= (SELECT months FROM bounds) ${rollupKeys}
      UNION ALL
      SELECT key, plays, played_seconds FROM play_card_rollups
        WHERE server_id = $1 AND kind = '${kind}' AND span = 'day' AND bucket >= (SELECT days FROM bounds) AND bucket < (SELECT months FROM bounds) ${rollupKeys}
      UNION ALL
      SELECT ${key}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (SELECT start FROM bounds) AND started_at < (SELECT days FROM bounds) AND ${filter} ${historyKeys}
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
 * The keys of an item card that can be in its top `size` over a days window, with their counts: every key
 * whose rank is at least the size-th best's, so ties are left for the caller to break by name. Undefined when
 * the walk would be long: the caller counts every key instead.
 *
 * A threshold walk (Fagin's threshold algorithm) over lists of keys by plays, read from the month span of
 * play_card_rollups (one list per UTC month the window touches; its month row holds every play of the window in
 * that month) or, for long windows, from the all-time span. At each depth the window counts of the keys met so
 * far are exact (cardWindowSql), and no key not met yet plays more in the window than the sum of the lists'
 * values at that depth (a list read to its end adds nothing); no key has more distinct viewers than plays. Ranked
 * by viewers, a list of keys by their viewers ever (play_card_viewer_counts, migration 0020) bounds them too: a
 * series has many plays per viewer, so the plays alone bounded it loosely and the walk read deep. The walk stops
 * once the size-th best window count (plays or viewers) is above the smaller bound. Exact.
 */
export async function topOfWindow(
  db: Database,
  serverId: string,
  tz: string,
  days: number,
  kind: 'Movie' | 'Series' | 'Audio',
  by: RankBy,
  size: number,
  firstDepth = 25,
): Promise<WindowCount[] | undefined> {
  // The window's first moment, over `$2` (zone) and `$3` (days); it runs to now.
  const first = daysWindowStart('$2', '$3');
  const order = ranking(by);
  const seen = new Map<string, WindowCount>();
  // $1 (the server) only keeps the placeholders those of cardWindowSql.
  const [{ lists, everything }] = (await db.query<{ lists: string[]; everything: boolean }>(
    `SELECT CASE WHEN count(*) > ${MAX_MONTH_LISTS} THEN ARRAY['all'] ELSE array_agg(m::text) END AS lists,
       NOT EXISTS (SELECT 1 FROM playback_history WHERE server_id = $1 AND started_at < ${first}) AS everything
     FROM generate_series(
       date_trunc('month', ${first} AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
     WHERE $1::uuid IS NOT NULL`,
    [serverId, tz, days],
  )) as [{ lists: string[]; everything: boolean }];
  if (everything && by === 'viewers') return allTimeByViewers(db, serverId, kind, size);
  const span = lists[0] === 'all' ? 'all' : 'month';
  let growth = 4;
  for (let depth = firstDepth; ; depth = Math.min(depth * growth, MAX_DEPTH)) {
    // The first `depth` keys of each list; a list's last value bounds every key below it in that list. Ranked
    // by viewers, a second list (read at the same time): keys by how many users ever played them (no window has more).
    const [heads, viewerHeads] = await Promise.all([
      db.query<{ list: string; key: string; value: string }>(
        `SELECT m.list, l.key, l.value FROM unnest($3::text[]) AS m(list)
         CROSS JOIN LATERAL (
           SELECT key, plays AS value FROM play_card_rollups
           WHERE server_id = $1 AND kind = $2 AND span = '${span}'
             AND bucket = ${span === 'all' ? ALL_TIME_BUCKET : `(m.list::timestamp AT TIME ZONE 'UTC')`}
           ORDER BY plays DESC, key LIMIT ${depth}
         ) AS l`,
        [serverId, kind, span === 'all' ? ['all'] : lists],
      ),
      by === 'viewers'
        ? db.query<{ key: string; viewers: number }>(
            `SELECT key, viewers FROM play_card_viewer_counts WHERE server_id = $1 AND kind = $2 ORDER BY viewers DESC, key LIMIT ${depth}`,
            [serverId, kind],
          )
        : Promise.resolve([]),
    ]);
    let threshold = 0;
    const perList = new Map<string, { count: number; last: number }>();
    for (const head of heads) perList.set(head.list, { count: (perList.get(head.list)?.count ?? 0) + 1, last: Number(head.value) });
    for (const list of perList.values()) if (list.count === depth) threshold += list.last;
    // A key met in neither list has at most `threshold` plays in the window and at most the viewer list's last
    // value of viewers ever (0 once that list is read to its end: every key with a viewer was met). That bound
    // holds only once the viewer list's keys are counted too, so they are, but only when it is the lower one
    // (long windows); over a month, the plays bound is lower and counting the most viewed ever would be waste.
    const viewerBound = viewerHeads.length === depth ? viewerHeads[depth - 1]!.viewers : 0;
    const byViewersEver = by === 'viewers' && viewerBound < threshold;
    if (byViewersEver) threshold = viewerBound;
    // Walking by viewers ever, ties at the top (every user saw the most popular series) end the walk soon after the
    // tied keys: grow by halves more than by quarters.
    growth = byViewersEver ? 2 : 4;
    const keys = [...new Set([...heads, ...(byViewersEver ? viewerHeads : [])].map((head) => head.key))].filter((key) => !seen.has(key));
    if (keys.length > 0) {
      const counts = await db.query<{ key: string; plays: number; played_seconds: string; viewers: number | null }>(
        by === 'viewers'
          ? `SELECT w.*, ${windowViewersSql(kind, days)} AS viewers FROM (${cardWindowSql(kind, '$4::text[]')}) AS w`
          : cardWindowSql(kind, '$4::text[]'),
        [serverId, tz, days, keys],
      );
      for (const key of keys) seen.set(key, { key, plays: 0, viewers: 0, played_seconds: 0 });
      for (const row of counts) {
        seen.set(row.key, {
          key: row.key,
          plays: Number(row.plays),
          viewers: Number(row.viewers ?? 0),
          played_seconds: Number(row.played_seconds),
        });
      }
    }
    const sizeth = [...seen.values()].filter((row) => row.plays > 0).sort(order)[size - 1];
    if (threshold === 0 || (sizeth && rankValue(by, sizeth) > threshold)) break;
    if (depth >= MAX_DEPTH) return undefined;
  }
  return atLeastSizeth(
    [...seen.values()].filter((row) => row.plays > 0),
    size,
    by,
  );
}

/** Windows at least this long count a key's viewers as its viewers ever minus those whose last play is older. */
const LONG_WINDOW_DAYS = 180;

/**
 * Distinct viewers in the window ($1 server, $2 zone, $3 days) of the key `w.key` (SQL, one index range per key):
 * the pairs whose last play started in it. Over a long window most pairs of a popular key are in it, so the pairs
 * before it are the shorter index range: viewers ever minus those. A scalar per key, not a join: the planner
 * cannot know how many keys the window's counts hold, and joined a grouped range scan to them in a nested loop
 * (once per key: 1.1 s for 700 keys at 100 k plays).
 */
function windowViewersSql(kind: CardKind, days: number): string {
  const start = daysWindowStart('$2', '$3');
  const pairs = (when: string) =>
    `(SELECT count(*)::int FROM play_card_viewers WHERE server_id = $1 AND kind = '${kind}' AND key = w.key AND last_started_at ${when} ${start})`;
  if (days < LONG_WINDOW_DAYS) return pairs('>=');
  return `((SELECT viewers FROM play_card_viewer_counts WHERE server_id = $1 AND kind = '${kind}' AND key = w.key) - ${pairs('<')})`;
}

/**
 * Most popular over a window that holds every play of the server: each key's viewers ever are its viewers in
 * the window, so the answer is the head of play_card_viewer_counts down to the size-th count (ties included),
 * with plays and seconds from the all-time span.
 */
async function allTimeByViewers(db: Database, serverId: string, kind: CardKind, size: number): Promise<WindowCount[]> {
  const rows = await db.query<{ key: string; viewers: number; plays: number; played_seconds: string }>(
    `SELECT c.key, c.viewers, a.plays, a.played_seconds FROM play_card_viewer_counts c
     JOIN play_card_rollups a ON a.server_id = c.server_id AND a.kind = c.kind AND a.span = 'all' AND a.bucket = ${ALL_TIME_BUCKET} AND a.key = c.key
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

/** Rows ranked as a card ranks them, cut after the size-th best but keeping every row tied with it. */
function atLeastSizeth(rows: WindowCount[], size: number, by: RankBy): WindowCount[] {
  const order = ranking(by);
  const sorted = [...rows].sort(order);
  const cut = sorted[size - 1];
  return cut ? sorted.filter((row) => order(row, cut) <= 0) : sorted;
}
