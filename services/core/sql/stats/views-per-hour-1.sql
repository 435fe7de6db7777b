WITH bounds AS MATERIALIZED (
      SELECT start, quarters, to_timestamp(ceil(extract(epoch FROM quarters) / 3600) * 3600) AS hours FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 900) * 900) AS quarters FROM (SELECT ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AS start) AS s) AS q
    ), months AS MATERIALIZED (
      SELECT m AS month FROM bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_month_quarter WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
      WHERE m AT TIME ZONE 'UTC' >= bounds.hours AND (
        SELECT count(DISTINCT ((d AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - d)
        FROM generate_series(m, m + interval '1 month', interval '1 day') AS d) = 1
    ), month_quarters AS MATERIALIZED (
      SELECT (m.month AT TIME ZONE 'UTC') AS bucket, q::smallint AS quarter,
          extract(hour FROM (((m.month AT TIME ZONE 'UTC') + q * interval '15 minutes') AT TIME ZONE $2::text))::int::text AS key
      FROM months m, generate_series(0, 95) AS q
    ), hour_ranges AS MATERIALIZED (
      -- The months (or their part in the window) read by hours, as UTC ranges.
      SELECT GREATEST(f.first, m AT TIME ZONE 'UTC') AS first_hour, LEAST(now(), (m + interval '1 month' - interval '1 hour') AT TIME ZONE 'UTC') AS last_hour
      FROM bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_hourly WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
      WHERE m NOT IN (SELECT month FROM months)
    ), hours AS MATERIALIZED (
      SELECT h, extract(hour FROM local)::int::text AS key, extract(hour FROM (local + interval '45 minutes'))::int::text = extract(hour FROM local)::int::text
          AND (h + interval '45 minutes') AT TIME ZONE $2::text = local + interval '45 minutes' AS whole
      FROM bounds, hour_ranges, generate_series(first_hour, last_hour, interval '1 hour') AS h,
        LATERAL (SELECT h AT TIME ZONE $2::text AS local) AS l
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT mq.key || '' || r.library_id AS key, r.plays, r.played_seconds
        FROM play_rollups_by_library_month_quarter r
        JOIN month_quarters mq ON mq.bucket = r.bucket AND mq.quarter = r.quarter
        WHERE r.server_id = $1 AND r.bucket >= (SELECT min(month) AT TIME ZONE 'UTC' FROM months)
      UNION ALL
      SELECT hours.key || '' || r.library_id AS key, r.plays, r.played_seconds
        FROM hour_ranges x CROSS JOIN LATERAL (
          -- One index range per month (OFFSET 0: not a hash join over the whole table, which the planner chose
          -- for an all-time chart in a DST zone, reading every hour row to use a few months of them).
          SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library_hourly
          WHERE server_id = $1 AND bucket >= x.first_hour AND bucket <= x.last_hour OFFSET 0
        ) AS r
        JOIN hours ON hours.h = r.bucket AND hours.whole
      UNION ALL
      SELECT extract(hour FROM (q.bucket AT TIME ZONE $2::text))::int::text || '' || q.library_id, q.plays, q.played_seconds
        FROM hours JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= hours.h AND q.bucket < hours.h + interval '1 hour'
        WHERE NOT hours.whole
      UNION ALL
      SELECT extract(hour FROM (bucket AT TIME ZONE $2::text))::int::text || '' || library_id, plays, played_seconds FROM play_rollups_by_library
        WHERE server_id = $1 AND bucket >= (SELECT quarters FROM bounds) AND bucket < (SELECT hours FROM bounds)
      UNION ALL
      SELECT extract(hour FROM (started_at AT TIME ZONE $2::text))::int::text || '' || COALESCE(library_id, ''), 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (SELECT start FROM bounds) AND started_at < (SELECT quarters FROM bounds)
    ) AS parts GROUP BY key HAVING sum(plays) > 0;
