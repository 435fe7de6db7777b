import { monthCeil, quarterCeil } from './time-window.js';

/**
 * Sums over a window from the rollups, exact at any window start: a library's playback methods (the one caller).
 * Whole UTC months from play_rollups_by_library_method_month (0027), the whole UTC days before the first whole
 * month from play_rollups_daily, the quarter hours before the first whole day from play_rollups, and the part
 * before the first whole quarter hour (an hours window) from playback_history itself. All time is a few rows per
 * month, not every day × client × method. Keys over local time (the charts) use chartRollup (hour-chart-sql.ts)
 * or dayChartRollup (day-chart-sql.ts): a UTC day is not a day in most zones.
 *
 * `key` is an expression over rollup columns that is also valid over playback_history (pass both forms); the
 * rollup key and filter may use only library_id and play_method (the month level's columns). `$1` is the server id.
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
  const months = monthCeil(days);
  return `SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT ${rollupKey} AS key, plays, played_seconds FROM play_rollups_by_library_method_month
        WHERE server_id = $1 AND bucket >= ${months} ${rollupFilter}
      UNION ALL
      SELECT ${rollupKey} AS key, plays, played_seconds FROM play_rollups_daily
        WHERE server_id = $1 AND bucket >= ${days} AND bucket < ${months} ${rollupFilter}
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
