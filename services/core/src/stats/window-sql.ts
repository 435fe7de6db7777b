import { quarterCeil } from './time-window.js';

/**
 * Sums over a window from the rollups, exact at any window start. Keys that do not depend on time (library,
 * client, play method) read whole UTC days from play_rollups_daily, the quarter hours before the first whole
 * day from play_rollups, and the part before the first whole quarter hour (an hours window, or a zone whose
 * midnight is not on a quarter hour) from playback_history itself. Keys over local time (the charts) use
 * chartRollup (hour-chart-sql.ts) or dayChartRollup (day-chart-sql.ts): a UTC day is not a day in most zones.
 *
 * `key` is an expression over rollup columns (library_id, client, play_method) that is also valid over
 * playback_history: pass both forms. `$1` is the server id.
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
  const quarters = quarterCeil(start);
  const days = dayCeil(quarters);
  return `SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT ${rollupKey} AS key, plays, played_seconds FROM play_rollups_daily
        WHERE server_id = $1 AND bucket >= ${days} ${rollupFilter}
      UNION ALL
      SELECT ${rollupKey} AS key, plays, played_seconds FROM play_rollups
        WHERE server_id = $1 AND bucket >= ${quarters} AND bucket < ${days} ${rollupFilter}
      UNION ALL
      SELECT ${historyKey} AS key, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= ${start} AND started_at < ${quarters} ${historyFilter}
    ) AS parts GROUP BY key HAVING sum(plays) > 0`;
}

/** First UTC midnight at or after a moment (SQL). */
function dayCeil(moment: string): string {
  return `to_timestamp(ceil(extract(epoch FROM ${moment}) / 86400) * 86400)`;
}
