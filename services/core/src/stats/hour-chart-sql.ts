import { hourCeil, quarterCeil } from './time-window.js';

/**
 * Plays and seconds per (local hour of the day, library) over a window, for the hour chart, exact in any zone.
 *
 * In a UTC month in which the zone's offset does not change, quarter hour q of every day falls in the same local
 * hour, so the month is its 96 rows per library in play_rollups_by_library_month_quarter (migration 0020), in
 * +05:30 and +05:45 too, where every UTC hour straddles two local hours. The window's months from its first
 * whole one through the current one are read so (the current month's rest is in the future and holds no plays);
 * a month's offset is compared at every UTC midnight from its first day to the next month's (no zone changes its
 * offset and back within a day). The other hours (the partial first month, months with a DST change) read
 * play_rollups_by_library_hourly where the offset is a whole number of hours that does not change within the
 * hour, play_rollups_by_library's quarter hours elsewhere, and playback_history before the first whole quarter
 * hour. A 365-day chart reads about 12 × 96 month rows and a few hundred hour rows per library.
 *
 * `localKey` maps a local timestamp (without zone) to the bucket's key; `tz` is the zone's placeholder.
 * `$1` is the server id. Rows: key = bucket key || `separator` || library id.
 */
export function hourChartRollup(options: { start: string; tz: string; separator: string; localKey: (local: string) => string }): string {
  const { start, tz, separator, localKey } = options;
  const rowKey = (column: string, library: string) => `${localKey(`(${column} AT TIME ZONE ${tz}::text)`)} || '${separator}' || ${library}`;
  // The window's bounds are computed once (not once per index probe), and each hour's local time once per hour,
  // not once per library row.
  return `WITH bounds AS MATERIALIZED (
      SELECT start, quarters, ${hourCeil('quarters')} AS hours FROM (SELECT start, ${quarterCeil('start')} AS quarters FROM (SELECT ${start} AS start) AS s) AS q
    ), months AS MATERIALIZED (
      -- From the first month holding plays: an all-time window starts decades back, and each empty month would
      -- cost its 96 keys and an index probe.
      SELECT m AS month FROM bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_month_quarter WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
      WHERE m AT TIME ZONE 'UTC' >= bounds.hours AND (
        SELECT count(DISTINCT ((d AT TIME ZONE 'UTC') AT TIME ZONE ${tz}::text) - d)
        FROM generate_series(m, m + interval '1 month', interval '1 day') AS d) = 1
    ), hours AS MATERIALIZED (
      SELECT h, ${localKey('local')} AS key, ${localKey(`(local + interval '45 minutes')`)} = ${localKey('local')}
          AND (h + interval '45 minutes') AT TIME ZONE ${tz}::text = local + interval '45 minutes' AS whole
      -- Only the hours of the months not read whole (so an all-time chart does not list every hour of years).
      FROM bounds, LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_hourly WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m,
        generate_series(GREATEST(f.first, m AT TIME ZONE 'UTC'), LEAST(now(), (m + interval '1 month' - interval '1 hour') AT TIME ZONE 'UTC'),
          interval '1 hour') AS h,
        LATERAL (SELECT h AT TIME ZONE ${tz}::text AS local) AS l
      WHERE m NOT IN (SELECT month FROM months)
    ), month_quarters AS MATERIALIZED (
      SELECT (m.month AT TIME ZONE 'UTC') AS bucket, q::smallint AS quarter,
          ${localKey(`(((m.month AT TIME ZONE 'UTC') + q * interval '15 minutes') AT TIME ZONE ${tz}::text)`)} AS key
      FROM months m, generate_series(0, 95) AS q
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      -- The months' rows from their first on (one index range), each matched to its local key on both the month
      -- and the quarter (a join filter on the month alone compared every month's keys with every row).
      SELECT mq.key || '${separator}' || r.library_id AS key, r.plays, r.played_seconds
        FROM play_rollups_by_library_month_quarter r
        JOIN month_quarters mq ON mq.bucket = r.bucket AND mq.quarter = r.quarter
        WHERE r.server_id = $1 AND r.bucket >= (SELECT min(month) AT TIME ZONE 'UTC' FROM months)
      UNION ALL
      SELECT hours.key || '${separator}' || r.library_id AS key, r.plays, r.played_seconds
        FROM play_rollups_by_library_hourly r JOIN hours ON hours.h = r.bucket AND hours.whole
        WHERE r.server_id = $1 AND r.bucket >= (SELECT hours FROM bounds)
      UNION ALL
      SELECT ${rowKey('q.bucket', 'q.library_id')}, q.plays, q.played_seconds
        FROM hours JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= hours.h AND q.bucket < hours.h + interval '1 hour'
        WHERE NOT hours.whole
      UNION ALL
      SELECT ${rowKey('bucket', 'library_id')}, plays, played_seconds FROM play_rollups_by_library
        WHERE server_id = $1 AND bucket >= (SELECT quarters FROM bounds) AND bucket < (SELECT hours FROM bounds)
      UNION ALL
      SELECT ${rowKey('started_at', "COALESCE(library_id, '')")}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (SELECT start FROM bounds) AND started_at < (SELECT quarters FROM bounds)
    ) AS parts GROUP BY key HAVING sum(plays) > 0`;
}
