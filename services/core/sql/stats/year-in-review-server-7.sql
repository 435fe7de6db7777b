WITH cells AS (WITH bounds AS MATERIALIZED (
      SELECT start, quarters, to_timestamp(ceil(extract(epoch FROM quarters) / 3600) * 3600) AS hours, make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AS finish, to_timestamp(floor(extract(epoch FROM make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)) / 900) * 900) AS end_quarters FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 900) * 900) AS quarters FROM (SELECT make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AS start) AS s) AS q
    ), hour_ranges AS MATERIALIZED (
      -- The months (or their part in the window) read by hours, as UTC ranges.
      SELECT GREATEST(f.first, m AT TIME ZONE 'UTC') AS first_hour, LEAST(((SELECT finish FROM bounds) - interval '1 microsecond'), (m + interval '1 month' - interval '1 hour') AT TIME ZONE 'UTC') AS last_hour
      FROM bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_hourly WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', ((SELECT finish FROM bounds) - interval '1 microsecond') AT TIME ZONE 'UTC'), interval '1 month') AS m
    ), hours AS MATERIALIZED (
      SELECT h, to_char(local, 'YYYY-MM-DD"T"HH24') AS key, to_char((local + interval '45 minutes'), 'YYYY-MM-DD"T"HH24') = to_char(local, 'YYYY-MM-DD"T"HH24')
          AND (h + interval '45 minutes') AT TIME ZONE $3::text = local + interval '45 minutes' AND h + interval '1 hour' <= bounds.finish AS whole
      FROM bounds, hour_ranges, generate_series(first_hour, last_hour, interval '1 hour') AS h,
        LATERAL (SELECT h AT TIME ZONE $3::text AS local) AS l
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT hours.key || ' ' || r.library_id AS key, r.plays, r.played_seconds
        FROM hour_ranges x CROSS JOIN LATERAL (
          -- One index range per month (OFFSET 0: not a hash join over the whole table, which the planner chose
          -- for an all-time chart in a DST zone, reading every hour row to use a few months of them).
          SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library_hourly
          WHERE server_id = $1 AND bucket >= x.first_hour AND bucket <= x.last_hour OFFSET 0
        ) AS r
        JOIN hours ON hours.h = r.bucket AND hours.whole
      UNION ALL
      SELECT to_char((q.bucket AT TIME ZONE $3::text), 'YYYY-MM-DD"T"HH24') || ' ' || q.library_id, q.plays, q.played_seconds
        FROM hours JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= hours.h AND q.bucket < hours.h + interval '1 hour' AND q.bucket < (SELECT end_quarters FROM bounds)
        WHERE NOT hours.whole
      UNION ALL
      SELECT to_char((bucket AT TIME ZONE $3::text), 'YYYY-MM-DD"T"HH24') || ' ' || library_id, plays, played_seconds FROM play_rollups_by_library
        WHERE server_id = $1 AND bucket >= (SELECT quarters FROM bounds) AND bucket < LEAST((SELECT hours FROM bounds), (SELECT end_quarters FROM bounds))
      UNION ALL
      SELECT to_char((started_at AT TIME ZONE $3::text), 'YYYY-MM-DD"T"HH24') || ' ' || COALESCE(library_id, ''), 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (SELECT start FROM bounds) AND started_at < LEAST((SELECT quarters FROM bounds), (SELECT finish FROM bounds))
      UNION ALL
      SELECT to_char((started_at AT TIME ZONE $3::text), 'YYYY-MM-DD"T"HH24') || ' ' || COALESCE(library_id, ''), 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= GREATEST((SELECT end_quarters FROM bounds), (SELECT quarters FROM bounds)) AND started_at < (SELECT finish FROM bounds)
    ) AS parts GROUP BY key HAVING sum(plays) > 0), local AS (
       SELECT left(key, 10) AS day, substr(key, 12, 2)::int AS hour, plays, played_seconds AS seconds FROM cells
     ), days AS (
       SELECT day AS key, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM local GROUP BY 1
     ), hours AS (
       SELECT hour::text AS key, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM local GROUP BY hour
     )
     SELECT 'total' AS kind, '' AS key, COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(seconds), 0)::bigint AS seconds FROM local
     UNION ALL (SELECT 'day', key, plays, seconds FROM days ORDER BY seconds DESC, plays DESC, key LIMIT 1)
     UNION ALL (SELECT 'hour', key, plays, seconds FROM hours ORDER BY seconds DESC, plays DESC, key::int LIMIT 1);
