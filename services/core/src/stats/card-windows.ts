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
  played_seconds: number;
}

/** Orders by plays, then seconds (the cards' order before names break ties). */
const byPlays = (a: WindowCount, b: WindowCount) => b.plays - a.plays || b.played_seconds - a.played_seconds;

/**
 * The keys of a card that can be in its top `size` over a days window, with their counts: every key whose
 * (plays, seconds) is at least the size-th best, so ties are left for the caller to break by name.
 *
 * No key plays more in a window than of all time, so keys are visited from the most played of all time down
 * (the all-time span, indexed by plays), their window counted, and the walk stops once the size-th best
 * window count is above the all-time plays of every key not visited yet. Exact; short when the window holds
 * a good part of all time, long for short windows, which the caller reads directly instead.
 */
export async function topOfWindow(db: Database, serverId: string, tz: string, days: number, kind: CardKind, size: number) {
  const seen: WindowCount[] = [];
  let after: { plays: number; key: string } | undefined;
  for (let batch = 100; ; batch = Math.min(batch * 4, 20_000)) {
    const candidates = await db.query<{ key: string; plays: number }>(
      `SELECT key, plays FROM play_card_rollups
       WHERE server_id = $1 AND kind = $2 AND span = 'all' AND plays > 0 AND ($3::int IS NULL OR plays < $3 OR (plays = $3 AND key > $4))
       ORDER BY plays DESC, key LIMIT ${batch}`,
      [serverId, kind, after?.plays ?? null, after?.key ?? ''],
    );
    if (candidates.length === 0) break;
    const counts = await db.query<WindowCount>(cardWindowSql(kind, '$4::text[]'), [serverId, tz, days, candidates.map((c) => c.key)]);
    seen.push(...counts.map((row) => ({ key: row.key, plays: Number(row.plays), played_seconds: Number(row.played_seconds) })));
    seen.sort(byPlays);
    const last = candidates[candidates.length - 1]!;
    after = { plays: last.plays, key: last.key };
    // Unvisited keys play at most last.plays in the window: done when they cannot reach the size-th best.
    if (candidates.length < batch || (seen.length >= size && seen[size - 1]!.plays > last.plays)) break;
  }
  return atLeastSizeth(seen, size);
}

/** Rows ranked by plays and seconds, cut after the size-th best but keeping every row tied with it. */
export function atLeastSizeth(rows: WindowCount[], size: number): WindowCount[] {
  const sorted = [...rows].sort(byPlays);
  const cut = sorted[size - 1];
  return cut ? sorted.filter((row) => byPlays(row, cut) <= 0) : sorted;
}
