/**
 * Plays and seconds per (local day bucket, library) over a days window, for the day and weekday charts, exact
 * in any zone (DST days of 23 or 25 hours, +05:30, +05:45) from play_rollups_by_library_day_prefix (0021).
 *
 * Local day D runs from its local midnight s to the next one, e. With P(x) the plays of x's UTC day before x,
 * D holds the whole UTC days from s's up to (not including) e's, minus P(s), plus P(e). P(x) is the prefix row of
 * x's UTC day up to x's whole hour, the quarter hours of play_rollups_by_library from there to x's quarter hour
 * (+05:30, +05:45), and playback_history from there to x (only in a zone whose midnight is not on a quarter hour).
 * Each UTC day's total (hour 24) falls in exactly one local day. About three rows per library and day.
 *
 * `start` is the window's first local midnight (SQL), `tz` the zone's placeholder, `$1` the server id;
 * `localKey` maps a local midnight (timestamp without zone) to the bucket key. The last day runs to the next
 * local midnight. Rows: key = bucket key || `separator` || library id.
 */
export function dayChartRollup(options: { start: string; tz: string; separator: string; localKey: (local: string) => string }): string {
  const { start, tz, separator, localKey } = options;
  const utcDay = (moment: string) => `to_timestamp(floor(extract(epoch FROM ${moment}) / 86400) * 86400)`;
  const quarterFloor = (moment: string) => `to_timestamp(floor(extract(epoch FROM ${moment}) / 900) * 900)`;
  return `WITH local_days AS MATERIALIZED (
      SELECT ${localKey('d')} AS key, d AT TIME ZONE ${tz}::text AS s, (d + interval '1 day') AT TIME ZONE ${tz}::text AS e
      -- From the window's first local midnight, or the local midnight before the first play (all time reads no
      -- empty years).
      FROM generate_series(GREATEST((${start}) AT TIME ZONE ${tz}::text, date_trunc('day', (
          SELECT min(bucket) FROM play_rollups_by_library_day_prefix WHERE server_id = $1 AND hour = 24) AT TIME ZONE ${tz}::text)),
        now() AT TIME ZONE ${tz}::text, interval '1 day') AS d
    ), edges AS MATERIALIZED (
      SELECT key, s AS x, -1 AS sign FROM local_days UNION ALL SELECT key, e, 1 FROM local_days
    ), moments AS MATERIALIZED (
      -- Each local midnight ends one local day and starts the next: its prefix is read once, not once per day.
      SELECT x, day, hour, day + hour * interval '1 hour' AS hour_start, ${quarterFloor('x')} AS quarter FROM (
        SELECT x, ${utcDay('x')} AS day, floor(extract(epoch FROM x - ${utcDay('x')}) / 3600)::int AS hour FROM (SELECT DISTINCT x FROM edges) AS d
      ) AS located
    ), hour_rows AS MATERIALIZED (
      -- The hour prefixes of every moment as one index range per distinct hour (one hour in a zone with a fixed
      -- offset, two across DST), not one probe per local midnight.
      SELECT bucket, hour, library_id, plays, played_seconds FROM play_rollups_by_library_day_prefix
      WHERE server_id = $1 AND hour = ANY (ARRAY(SELECT DISTINCT hour FROM moments WHERE hour > 0))
        AND bucket >= (SELECT min(day) FROM moments) AND bucket <= (SELECT max(day) FROM moments)
    ), moment_quarters AS MATERIALIZED (
      -- The whole quarter hours between a moment's hour and its quarter (+05:30: two, +05:45: three).
      SELECT x, q FROM moments, generate_series(hour_start, quarter - interval '15 minutes', interval '15 minutes') AS q
      WHERE quarter > hour_start
    ), quarter_rows AS MATERIALIZED (
      -- Read as one index scan over the listed quarter hours.
      SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library
      WHERE server_id = $1 AND bucket = ANY (ARRAY(SELECT DISTINCT q FROM moment_quarters))
    ), prefixes AS MATERIALIZED (
      SELECT x, library_id, sum(plays) AS plays, sum(played_seconds) AS played_seconds FROM (
        SELECT m.x, r.library_id, r.plays, r.played_seconds
          FROM moments m JOIN hour_rows r ON r.hour = m.hour AND r.bucket = m.day
        UNION ALL
        SELECT mq.x, q.library_id, q.plays, q.played_seconds
          FROM moment_quarters mq JOIN quarter_rows q ON q.bucket = mq.q
        UNION ALL
        -- Only in a zone whose midnight is not on a quarter hour: each such moment reads its own history rows
        -- (LATERAL, OFFSET 0 so that it is not flattened into a hash join over the whole table).
        SELECT m.x, h.library_id, 1, h.played_seconds
          FROM moments m CROSS JOIN LATERAL (
            SELECT COALESCE(library_id, '') AS library_id, played_seconds FROM playback_history
            WHERE server_id = $1 AND started_at >= m.quarter AND started_at < m.x OFFSET 0
          ) AS h
          WHERE m.x > m.quarter
      ) AS parts GROUP BY 1, 2
    ), whole_days AS MATERIALIZED (
      SELECT key, u FROM local_days, generate_series(${utcDay('s')}, ${utcDay('e')} - interval '24 hours', interval '24 hours') AS u
    )
    SELECT key || '${separator}' || library_id AS key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT w.key, r.library_id, r.plays, r.played_seconds
        FROM whole_days w JOIN play_rollups_by_library_day_prefix r ON r.bucket = w.u
        WHERE r.server_id = $1 AND r.hour = 24 AND r.bucket >= (SELECT min(u) FROM whole_days) AND r.bucket <= (SELECT max(u) FROM whole_days)
      UNION ALL
      SELECT e.key, p.library_id, e.sign * p.plays, e.sign * p.played_seconds FROM edges e JOIN prefixes p USING (x)
    ) AS parts GROUP BY 1 HAVING sum(plays) > 0`;
}
