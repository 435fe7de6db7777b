import type { Database } from '../db/database.js';
import { CARD_KINDS, type CardKind } from '../history/rollup-sql.js';
import { daysWindowStart } from './time-window.js';

/**
 * Plays and seconds per key of a card (play_card_rollups, migration 0018) over a days window, exact at any
 * window start: whole UTC months from the month span, the whole UTC days before the first whole month from the
 * day span, and the plays before the first UTC midnight (the window starts at a local midnight) from
 * playback_history. A 365-day window reads about 12 month rows and up to 31 day rows per key.
 *
 * `$1` server id, `$2` zone, `$3` days; with `keysParam`, only those keys (a text[] placeholder).
 */
export function cardWindowSql(kind: CardKind, keysParam?: string): string {
  const { key, filter } = CARD_KINDS[kind];
  const rollupKeys = keysParam ? `AND key = ANY(${keysParam})` : '';
  const historyKeys = keysParam ? `AND ${key} = ANY(${keysParam})` : '';
  return `WITH bounds AS MATERIALIZED (
      SELECT start, days, (date_trunc('month', days AT TIME ZONE 'UTC') + CASE WHEN days = date_trunc('month', days AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
          THEN interval '0' ELSE interval '1 month' END) AT TIME ZONE 'UTC' AS months
      FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 86400) * 86400) AS days
            FROM (SELECT ${daysWindowStart('$2', '$3')} AS start) AS s) AS d
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

/** How many keys the walk below visits at most before it gives up (the caller then counts every key). */
const MAX_WALK = 6_000;

/**
 * The keys of an item card that can be in its top `size` over a days window, with their counts: every key
 * whose rank is at least the size-th best's, so ties are left for the caller to break by name. Undefined when
 * the walk would be long (short windows, where the all-time bound is loose): the caller counts every key.
 *
 * No key plays more in a window than of all time, and no key has more distinct viewers than plays, so keys are
 * visited from the most played of all time down (the all-time span, indexed by plays), their window counted,
 * and the walk stops once the size-th best window count (plays or viewers) is above the all-time plays of
 * every key not visited yet. Exact.
 */
export async function topOfWindow(
  db: Database,
  serverId: string,
  tz: string,
  days: number,
  kind: 'Movie' | 'Series' | 'Audio',
  by: RankBy,
  size: number,
  firstBatch = 200,
): Promise<WindowCount[] | undefined> {
  const order = ranking(by);
  const seen: WindowCount[] = [];
  let visited = 0;
  let after: { plays: number; key: string } | undefined;
  for (let batch = firstBatch; ; batch = Math.min(batch * 3, MAX_WALK)) {
    if (visited >= MAX_WALK) return undefined;
    const candidates = await db.query<{ key: string; plays: number }>(
      `SELECT key, plays FROM play_card_rollups
       WHERE server_id = $1 AND kind = $2 AND span = 'all' AND plays > 0 AND ($3::int IS NULL OR plays < $3 OR (plays = $3 AND key > $4))
       ORDER BY plays DESC, key LIMIT ${batch}`,
      [serverId, kind, after?.plays ?? null, after?.key ?? ''],
    );
    if (candidates.length === 0) break;
    visited += candidates.length;
    const keys = candidates.map((c) => c.key);
    const counts = await db.query<{ key: string; plays: number; played_seconds: string; viewers: number | null }>(
      by === 'viewers'
        ? `SELECT w.*, v.viewers FROM (${cardWindowSql(kind, '$4::text[]')}) AS w
           JOIN (SELECT key, count(*)::int AS viewers FROM play_card_viewers
                 WHERE server_id = $1 AND kind = '${kind}' AND key = ANY($4::text[]) AND last_started_at >= ${daysWindowStart('$2', '$3')}
                 GROUP BY key) AS v USING (key)`
        : cardWindowSql(kind, '$4::text[]'),
      [serverId, tz, days, keys],
    );
    for (const row of counts) {
      seen.push({ key: row.key, plays: Number(row.plays), viewers: Number(row.viewers ?? 0), played_seconds: Number(row.played_seconds) });
    }
    seen.sort(order);
    const last = candidates[candidates.length - 1]!;
    after = { plays: last.plays, key: last.key };
    const sizeth = seen[size - 1];
    // Unvisited keys play at most last.plays in the window (and have at most as many viewers).
    if (candidates.length < batch || (sizeth && (by === 'viewers' ? sizeth.viewers : sizeth.plays) > last.plays)) break;
  }
  return atLeastSizeth(seen, size, by);
}

/** Rows ranked as a card ranks them, cut after the size-th best but keeping every row tied with it. */
export function atLeastSizeth(rows: WindowCount[], size: number, by: RankBy): WindowCount[] {
  const order = ranking(by);
  const sorted = [...rows].sort(order);
  const cut = sorted[size - 1];
  return cut ? sorted.filter((row) => order(row, cut) <= 0) : sorted;
}
