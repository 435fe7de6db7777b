import { hourCeil, quarterCeil } from './time-window.js';

/**
 * Plays and seconds per (local time bucket, library) over a window, for the charts, exact in any zone. The one
 * reader of the hour chart and of the year in review's chart figures (which has an end).
 *
 * Whole UTC hours come from play_rollups_by_library_hourly where the zone's offset does not change within the
 * hour and the hour's first and last quarter fall in the same bucket (so all of it does: every hour of a
 * whole-hour zone for the hour chart; for a key with the date, every hour but the one holding local midnight in
 * +05:30 and +05:45), the quarter hours of play_rollups_by_library for the other hours and before the first whole
 * hour, and playback_history before the first whole quarter hour (and, with an end, after the last one).
 *
 * With `timeOfDay` (the key depends on the local time of day only: the hour chart), a UTC month in which the
 * zone's offset does not change is read from play_rollups_by_library_month_quarter (migration 0020): quarter
 * hour q of every day of the month falls in the same local hour, so the month is its 96 rows per library, in
 * +05:30 and +05:45 too, where every UTC hour straddles two local hours. The window's whole months (through the
 * current one, whose rest holds no plays, or the last one that ends by the end) are read so; a month's offset is
 * compared at every UTC midnight from its first day to the next month's (no zone changes its offset and back
 * within a day). The other months read hours as above. A 365-day hour chart reads about 12 × 96 month rows and a
 * few hundred hour rows per library; a year in review (by local day and hour) about 8,800 hour rows per library.
 *
 * `localKey` maps a local timestamp (without zone) to the bucket's key; `tz` is the zone's placeholder; `start`
 * and `end` (excluded; without it the window runs to now) are SQL moments. `$1` is the server id.
 * Rows: key = bucket key || `separator` || library id.
 */
export function chartRollup(options: {
  start: string;
  end?: string;
  tz: string;
  separator: string;
  localKey: (local: string) => string;
  timeOfDay?: boolean;
}): string {
  const { start, end, tz, separator, localKey, timeOfDay = false } = options;
  const rowKey = (column: string, library: string) => `${localKey(`(${column} AT TIME ZONE ${tz}::text)`)} || '${separator}' || ${library}`;
  const bound = (name: string) => `(SELECT ${name} FROM bounds)`;
  // An end cuts the last hours: an hour is whole only if it ends by then, the quarters of a cut hour stop at the
  // end's quarter, and the plays after that quarter's start come from the history (a window runs to now otherwise).
  const finish = end ? `, ${end} AS finish, ${quarterFloor(end)} AS end_quarters` : '';
  const lastMoment = end ? `(${bound('finish')} - interval '1 microsecond')` : 'now()';
  const wholeByEnd = end ? ` AND h + interval '1 hour' <= bounds.finish` : '';
  const monthByEnd = end ? ` AND (m + interval '1 month') AT TIME ZONE 'UTC' <= bounds.finish` : '';
  const quartersByEnd = end ? ` AND q.bucket < ${bound('end_quarters')}` : '';
  const headQuartersEnd = end ? `LEAST(${bound('hours')}, ${bound('end_quarters')})` : bound('hours');
  const headPlaysEnd = end ? `LEAST(${bound('quarters')}, ${bound('finish')})` : bound('quarters');
  // Months from the first one holding plays: an all-time window starts decades back, and each empty month would
  // cost its keys and an index probe.
  const months = (level: string) => `bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM ${level} WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', ${lastMoment} AT TIME ZONE 'UTC'), interval '1 month') AS m`;
  const monthCtes = timeOfDay
    ? `, months AS MATERIALIZED (
      SELECT m AS month FROM ${months('play_rollups_by_library_month_quarter')}
      WHERE m AT TIME ZONE 'UTC' >= bounds.hours${monthByEnd} AND (
        SELECT count(DISTINCT ((d AT TIME ZONE 'UTC') AT TIME ZONE ${tz}::text) - d)
        FROM generate_series(m, m + interval '1 month', interval '1 day') AS d) = 1
    ), month_quarters AS MATERIALIZED (
      SELECT (m.month AT TIME ZONE 'UTC') AS bucket, q::smallint AS quarter,
          ${localKey(`(((m.month AT TIME ZONE 'UTC') + q * interval '15 minutes') AT TIME ZONE ${tz}::text)`)} AS key
      FROM months m, generate_series(0, 95) AS q
    )`
    : '';
  // The months' rows from their first on (one index range), each matched to its local key on both the month and
  // the quarter (a join filter on the month alone compared every month's keys with every row).
  const monthPart = timeOfDay
    ? `SELECT mq.key || '${separator}' || r.library_id AS key, r.plays, r.played_seconds
        FROM play_rollups_by_library_month_quarter r
        JOIN month_quarters mq ON mq.bucket = r.bucket AND mq.quarter = r.quarter
        WHERE r.server_id = $1 AND r.bucket >= (SELECT min(month) AT TIME ZONE 'UTC' FROM months)
      UNION ALL
      `
    : '';
  const tailPlays = end
    ? `
      UNION ALL
      SELECT ${rowKey('started_at', "COALESCE(library_id, '')")}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= GREATEST(${bound('end_quarters')}, ${bound('quarters')}) AND started_at < ${bound('finish')}`
    : '';
  // The window's bounds are computed once (not once per index probe), and each hour's local time once per hour,
  // not once per library row; only the hours of the months not read whole are listed.
  return `WITH bounds AS MATERIALIZED (
      SELECT start, quarters, ${hourCeil('quarters')} AS hours${finish} FROM (SELECT start, ${quarterCeil('start')} AS quarters FROM (SELECT ${start} AS start) AS s) AS q
    )${monthCtes}, hour_ranges AS MATERIALIZED (
      -- The months (or their part in the window) read by hours, as UTC ranges.
      SELECT GREATEST(f.first, m AT TIME ZONE 'UTC') AS first_hour, LEAST(${lastMoment}, (m + interval '1 month' - interval '1 hour') AT TIME ZONE 'UTC') AS last_hour
      FROM ${months('play_rollups_by_library_hourly')}${
        timeOfDay
          ? `
      WHERE m NOT IN (SELECT month FROM months)`
          : ''
      }
    ), hours AS MATERIALIZED (
      SELECT h, ${localKey('local')} AS key, ${localKey(`(local + interval '45 minutes')`)} = ${localKey('local')}
          AND (h + interval '45 minutes') AT TIME ZONE ${tz}::text = local + interval '45 minutes'${wholeByEnd} AS whole
      FROM bounds, hour_ranges, generate_series(first_hour, last_hour, interval '1 hour') AS h,
        LATERAL (SELECT h AT TIME ZONE ${tz}::text AS local) AS l
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      ${monthPart}SELECT hours.key || '${separator}' || r.library_id AS key, r.plays, r.played_seconds
        FROM hour_ranges x CROSS JOIN LATERAL (
          -- One index range per month (OFFSET 0: not a hash join over the whole table, which the planner chose
          -- for an all-time chart in a DST zone, reading every hour row to use a few months of them).
          SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library_hourly
          WHERE server_id = $1 AND bucket >= x.first_hour AND bucket <= x.last_hour OFFSET 0
        ) AS r
        JOIN hours ON hours.h = r.bucket AND hours.whole
      UNION ALL
      SELECT ${rowKey('q.bucket', 'q.library_id')}, q.plays, q.played_seconds
        FROM hours JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= hours.h AND q.bucket < hours.h + interval '1 hour'${quartersByEnd}
        WHERE NOT hours.whole
      UNION ALL
      SELECT ${rowKey('bucket', 'library_id')}, plays, played_seconds FROM play_rollups_by_library
        WHERE server_id = $1 AND bucket >= ${bound('quarters')} AND bucket < ${headQuartersEnd}
      UNION ALL
      SELECT ${rowKey('started_at', "COALESCE(library_id, '')")}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= ${bound('start')} AND started_at < ${headPlaysEnd}${tailPlays}
    ) AS parts GROUP BY key HAVING sum(plays) > 0`;
}

/** Last quarter-hour boundary at or before a moment (SQL). */
function quarterFloor(moment: string): string {
  return `to_timestamp(floor(extract(epoch FROM ${moment}) / 900) * 900)`;
}
