WITH dates AS MATERIALIZED (
      -- The window's local dates: from its first local midnight, or the one before the first play (all time reads
      -- no empty years), to today.
      SELECT GREATEST((((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) AT TIME ZONE $2::text, date_trunc('day', (
          SELECT min(bucket) FROM play_rollups_by_library_day_prefix WHERE server_id = $1 AND hour = 24) AT TIME ZONE $2::text)) AS first,
        date_trunc('day', now() AT TIME ZONE $2::text) AS last
    ), moments AS MATERIALIZED (
      -- Every local midnight from the first day's to the one after today's: the day it starts and the day it ends
      -- (none outside the window).
      SELECT x, starts, ends, day, hour, day + hour * interval '1 hour' AS hour_start, to_timestamp(floor(extract(epoch FROM x) / 900) * 900) AS quarter FROM (
        SELECT x, starts, ends, to_timestamp(floor(extract(epoch FROM x) / 86400) * 86400) AS day, floor(extract(epoch FROM x - to_timestamp(floor(extract(epoch FROM x) / 86400) * 86400)) / 3600)::int AS hour FROM (
          SELECT d AT TIME ZONE $2::text AS x,
            CASE WHEN d <= dates.last THEN extract(dow FROM d)::int::text END AS starts,
            CASE WHEN d > dates.first THEN extract(dow FROM (d - interval '1 day'))::int::text END AS ends
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
    SELECT parts.key || '' || parts.library_id AS key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT extract(dow FROM date_trunc('day', (r.bucket + interval '1 day' - interval '1 microsecond') AT TIME ZONE $2::text))::int::text AS key,
          r.library_id, r.plays, r.played_seconds
        FROM play_rollups_by_library_day_prefix r
        WHERE r.server_id = $1 AND r.hour = 24
          AND r.bucket >= (SELECT to_timestamp(floor(extract(epoch FROM min(x)) / 86400) * 86400) FROM moments) AND r.bucket < (SELECT to_timestamp(floor(extract(epoch FROM max(x)) / 86400) * 86400) FROM moments)
      UNION ALL
      SELECT k.key, p.library_id, k.sign * p.plays, k.sign * p.played_seconds
        FROM prefixes p JOIN moments m USING (x) CROSS JOIN LATERAL (VALUES (m.starts, -1), (m.ends, 1)) AS k (key, sign)
        WHERE k.key IS NOT NULL
    ) AS parts GROUP BY parts.key, parts.library_id HAVING sum(plays) > 0;
