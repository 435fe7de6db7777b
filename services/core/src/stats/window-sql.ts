import { quarterCeil } from './time-window.js';

/**
 * Sums over a window from the quarter-hour rollups, exact at any window start: whole quarter hours come from
 * play_rollups, and the part before the first whole quarter hour (an hours window, or a zone whose midnight is
 * not on a quarter hour) from playback_history itself.
 *
 * `key` is an expression over play_rollups columns (library_id, client, play_method, bucket) that is also valid
 * over playback_history with `started_at` for `bucket`: pass both forms. `$1` is the server id.
 */
export function windowedRollup(options: {
  start: string;
  rollupKey: string;
  historyKey: string;
  rollupFilter?: string;
  historyFilter?: string;
}): string {
  const { start, rollupKey, historyKey } = options;
  const rollupFilter = options.rollupFilter ? `AND ${options.rollupFilter}` : '';
  const historyFilter = options.historyFilter ? `AND ${options.historyFilter}` : '';
  return `SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT ${rollupKey} AS key, plays, played_seconds FROM play_rollups
        WHERE server_id = $1 AND bucket >= ${quarterCeil(start)} ${rollupFilter}
      UNION ALL
      SELECT ${historyKey} AS key, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= ${start} AND started_at < ${quarterCeil(start)} ${historyFilter}
    ) AS parts GROUP BY key HAVING sum(plays) > 0`;
}
