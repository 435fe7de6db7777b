/**
 * Plays and seconds per (local day bucket, library) over a days window, for the day and weekday charts, exact
 * in any zone (DST days of 23 or 25 hours, +05:30, +05:45) from play_rollups_by_library_day_prefix (0021).
 *
 * Local day D runs from its local midnight s to the next one, e. With P(x) the plays of x's UTC day before x,
 * D holds the whole UTC days from s's up to (not including) e's, minus P(s), plus P(e). P(x) is the prefix row of
 * x's UTC day up to x's whole hour, the quarter hours of play_rollups_by_library from there to x's quarter hour
 * (+05:30, +05:45), and playback_history from there to x (only in a zone whose midnight is not on a quarter hour).
 * Each UTC day's total (hour 24) falls in exactly one local day: the one holding the UTC day's last moment. About
 * three rows per library and day.
 *
 * Read as ranges, not per day: the whole days as one index range, the hour prefixes as one range per distinct hour
 * (one in a zone with a fixed offset, two across DST); the quarter hours by one index range per midnight.
 * Each midnight's prefix rows go, with their sign, straight to the two days it bounds (no per-midnight sums).
 *
 * `start` is the window's first local midnight (SQL), `tz` the zone's placeholder, `$1` the server id;
 * `localKey` maps a local midnight (timestamp without zone) to the bucket key. The last day runs to the next
 * local midnight. Rows: key = bucket key || `separator` || library id.
 */
export function dayChartRollup(options: { start: string; tz: string; separator: string; localKey: (local: string) => string }): string {
  const { start, tz, separator, localKey } = options;
  const utcDay = (moment: string) => `to_timestamp(floor(extract(epoch FROM ${moment}) / 86400) * 86400)`;
  const quarterFloor = (moment: string) => `to_timestamp(floor(extract(epoch FROM ${moment}) / 900) * 900)`;
  return `WITH dates AS MATERIALIZED (
      -- The window's local dates: from its first local midnight, or the one before the first play (all time reads
      -- no empty years), to today.
      SELECT GREATEST((${start}) AT TIME ZONE ${tz}::text, date_trunc('day', (
          SELECT min(bucket) FROM play_rollups_by_library_day_prefix WHERE server_id = $1 AND hour = 24) AT TIME ZONE ${tz}::text)) AS first,
        date_trunc('day', now() AT TIME ZONE ${tz}::text) AS last
    ), moments AS MATERIALIZED (
      -- Every local midnight from the first day's to the one after today's: the day it starts and the day it ends
      -- (none outside the window).
      SELECT x, starts, ends, day, hour, day + hour * interval '1 hour' AS hour_start, ${quarterFloor('x')} AS quarter FROM (
        SELECT x, starts, ends, ${utcDay('x')} AS day, floor(extract(epoch FROM x - ${utcDay('x')}) / 3600)::int AS hour FROM (
          SELECT d AT TIME ZONE ${tz}::text AS x,
            CASE WHEN d <= dates.last THEN ${localKey('d')} END AS starts,
            CASE WHEN d > dates.first THEN ${localKey(`(d - interval '1 day')`)} END AS ends
          FROM dates, generate_series(dates.first, dates.last + interval '1 day', interval '1 day') AS d
        ) AS m
      ) AS located
    ), hour_rows AS MATERIALIZED (
      SELECT bucket, hour, library_id, plays, played_seconds FROM play_rollups_by_library_day_prefix
      WHERE server_id = $1 AND hour = ANY (ARRAY(SELECT DISTINCT hour FROM moments WHERE hour > 0))
        AND bucket >= (SELECT min(day) FROM moments) AND bucket <= (SELECT max(day) FROM moments)
    ), prefixes AS (
      SELECT m.x, r.library_id, r.plays, r.played_seconds
        FROM moments m JOIN hour_rows r ON r.hour = m.hour AND r.bucket = m.day
      UNION ALL
      -- The quarter hours from a moment's hour to its quarter (+05:30, +05:45) as one index range per moment (the
      -- quarters of one moment are adjacent in the key; listing them would cost a probe each), and, only in a zone
      -- whose midnight is not on a quarter hour, the history rows from there. LATERAL, OFFSET 0: not flattened
      -- into a hash join over the whole table.
      SELECT m.x, q.library_id, q.plays, q.played_seconds
        FROM moments m CROSS JOIN LATERAL (
          SELECT library_id, plays, played_seconds FROM play_rollups_by_library
          WHERE server_id = $1 AND bucket >= m.hour_start AND bucket < m.quarter OFFSET 0
        ) AS q
        WHERE m.quarter > m.hour_start
      UNION ALL
      SELECT m.x, h.library_id, 1, h.played_seconds
        FROM moments m CROSS JOIN LATERAL (
          SELECT COALESCE(library_id, '') AS library_id, played_seconds FROM playback_history
          WHERE server_id = $1 AND started_at >= m.quarter AND started_at < m.x OFFSET 0
        ) AS h
        WHERE m.x > m.quarter
    )
    SELECT parts.key || '${separator}' || parts.library_id AS key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT ${localKey(`date_trunc('day', (r.bucket + interval '1 day' - interval '1 microsecond') AT TIME ZONE ${tz}::text)`)} AS key,
          r.library_id, r.plays, r.played_seconds
        FROM play_rollups_by_library_day_prefix r
        WHERE r.server_id = $1 AND r.hour = 24
          AND r.bucket >= (SELECT ${utcDay('min(x)')} FROM moments) AND r.bucket < (SELECT ${utcDay('max(x)')} FROM moments)
      UNION ALL
      SELECT k.key, p.library_id, k.sign * p.plays, k.sign * p.played_seconds
        FROM prefixes p JOIN moments m USING (x) CROSS JOIN LATERAL (VALUES (m.starts, -1), (m.ends, 1)) AS k (key, sign)
        WHERE k.key IS NOT NULL
    ) AS parts GROUP BY parts.key, parts.library_id HAVING sum(plays) > 0`;
}
