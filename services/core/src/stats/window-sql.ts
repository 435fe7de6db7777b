import { hourCeil, quarterCeil } from './time-window.js';

/**
 * Sums over a window from the rollups, exact at any window start. Keys that do not depend on time (library,
 * play method) read whole UTC days from play_rollups_daily, the quarter hours before the first whole
 * day from play_rollups, and the part before the first whole quarter hour (an hours window, or a zone whose
 * midnight is not on a quarter hour) from playback_history itself. Keys over local time (the charts) use
 * chartRollup below: a UTC day is not a day in most zones.
 *
 * `key` is an expression over rollup columns (library_id, play_method) that is also valid over
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

/**
 * Plays and seconds per (local time bucket, library) over a window, for the charts, exact in any zone: whole
 * UTC hours from play_rollups_by_library_hourly where the zone's offset does not change within the hour and the
 * hour's first and last quarter fall in the same bucket (so all of it does: every hour for the day and weekday
 * charts, +05:30 and +05:45 included, except the one holding local midnight; every hour of a whole-hour zone for
 * the hour chart), the quarter hours of play_rollups_by_library for the other hours and before the first whole
 * hour, and playback_history before the first whole quarter hour. A 365-day chart reads about 9,000 hour rows per
 * library instead of every quarter hour × library × client × method.
 *
 * `localKey` maps a local timestamp (without zone) to the bucket's key; `tz` is the zone's placeholder.
 * `$1` is the server id. Rows: key = bucket key || `separator` || library id.
 */
export function chartRollup(options: {
  start: string;
  /** The window's end (excluded); without it the window runs to now. */
  end?: string;
  tz: string;
  separator: string;
  localKey: (local: string) => string;
}): string {
  const { start, end, tz, separator, localKey } = options;
  const rowKey = (column: string, library: string) => `${localKey(`(${column} AT TIME ZONE ${tz}::text)`)} || '${separator}' || ${library}`;
  // An end cuts the last hours: an hour is whole only if it ends by then, the quarters of a cut hour stop at the
  // end's quarter, and the plays after that quarter's start come from the history (a window runs to now otherwise).
  const finish = end ? `, ${end} AS finish, ${quarterFloor(end)} AS end_quarters` : '';
  const lastHour = end ? `(SELECT finish FROM bounds) - interval '1 microsecond'` : 'now()';
  const wholeByEnd = end ? ` AND h + interval '1 hour' <= bounds.finish` : '';
  const quartersByEnd = end ? ' AND q.bucket < (SELECT end_quarters FROM bounds)' : '';
  const headQuartersEnd = end ? 'LEAST((SELECT hours FROM bounds), (SELECT end_quarters FROM bounds))' : '(SELECT hours FROM bounds)';
  const headPlaysEnd = end ? 'LEAST((SELECT quarters FROM bounds), (SELECT finish FROM bounds))' : '(SELECT quarters FROM bounds)';
  const tailPlays = end
    ? `
      UNION ALL
      SELECT ${rowKey('started_at', "COALESCE(library_id, '')")}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= GREATEST((SELECT end_quarters FROM bounds), (SELECT quarters FROM bounds))
          AND started_at < (SELECT finish FROM bounds)`
    : '';
  // The window's bounds are computed once (not once per index probe), and each hour's local time once per hour,
  // not once per library row.
  return `WITH bounds AS MATERIALIZED (
      SELECT start, quarters, ${hourCeil('quarters')} AS hours${finish} FROM (SELECT start, ${quarterCeil('start')} AS quarters FROM (SELECT ${start} AS start) AS s) AS q
    ), hours AS MATERIALIZED (
      SELECT h, ${localKey('local')} AS key, ${localKey(`(local + interval '45 minutes')`)} = ${localKey('local')}
          AND (h + interval '45 minutes') AT TIME ZONE ${tz}::text = local + interval '45 minutes'${wholeByEnd} AS whole
      FROM bounds, generate_series(
          GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_hourly WHERE server_id = $1)), ${lastHour}, interval '1 hour') AS h,
        LATERAL (SELECT h AT TIME ZONE ${tz}::text AS local) AS l
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT hours.key || '${separator}' || r.library_id AS key, r.plays, r.played_seconds
        FROM play_rollups_by_library_hourly r JOIN hours ON hours.h = r.bucket AND hours.whole
        WHERE r.server_id = $1 AND r.bucket >= (SELECT hours FROM bounds)
      UNION ALL
      SELECT ${rowKey('q.bucket', 'q.library_id')}, q.plays, q.played_seconds
        FROM hours JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= hours.h AND q.bucket < hours.h + interval '1 hour'${quartersByEnd}
        WHERE NOT hours.whole
      UNION ALL
      SELECT ${rowKey('bucket', 'library_id')}, plays, played_seconds FROM play_rollups_by_library
        WHERE server_id = $1 AND bucket >= (SELECT quarters FROM bounds) AND bucket < ${headQuartersEnd}
      UNION ALL
      SELECT ${rowKey('started_at', "COALESCE(library_id, '')")}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (SELECT start FROM bounds) AND started_at < ${headPlaysEnd}${tailPlays}
    ) AS parts GROUP BY key HAVING sum(plays) > 0`;
}

/** Last quarter-hour boundary at or before a moment (SQL). */
function quarterFloor(moment: string): string {
  return `to_timestamp(floor(extract(epoch FROM ${moment}) / 900) * 900)`;
}
