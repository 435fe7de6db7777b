WITH local_days AS MATERIALIZED (
      SELECT extract(dow FROM d)::int::text AS key, d AT TIME ZONE $2::text AS s, (d + interval '1 day') AT TIME ZONE $2::text AS e
      -- From the window's first local midnight, or the local midnight before the first play (all time reads no
      -- empty years).
      FROM generate_series(GREATEST((((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) AT TIME ZONE $2::text, date_trunc('day', (
          SELECT min(bucket) FROM play_rollups_by_library_day_prefix WHERE server_id = $1 AND hour = 24) AT TIME ZONE $2::text)),
        now() AT TIME ZONE $2::text, interval '1 day') AS d
    ), edges AS MATERIALIZED (
      SELECT key, s AS x, -1 AS sign FROM local_days UNION ALL SELECT key, e, 1 FROM local_days
    ), moments AS MATERIALIZED (
      -- Each local midnight ends one local day and starts the next: its prefix is read once, not once per day.
      SELECT x, day, hour, day + hour * interval '1 hour' AS hour_start, to_timestamp(floor(extract(epoch FROM x) / 900) * 900) AS quarter FROM (
        SELECT x, to_timestamp(floor(extract(epoch FROM x) / 86400) * 86400) AS day, floor(extract(epoch FROM x - to_timestamp(floor(extract(epoch FROM x) / 86400) * 86400)) / 3600)::int AS hour FROM (SELECT DISTINCT x FROM edges) AS d
      ) AS located
    ), prefixes AS MATERIALIZED (
      SELECT x, library_id, sum(plays) AS plays, sum(played_seconds) AS played_seconds FROM (
        -- Each moment reads its own rows by key (LATERAL, OFFSET 0 so that it is not flattened into a hash join over
        -- the whole table: the planner cannot see how few moments there are).
        SELECT m.x, r.library_id, r.plays, r.played_seconds
          FROM moments m CROSS JOIN LATERAL (
            SELECT library_id, plays, played_seconds FROM play_rollups_by_library_day_prefix
            WHERE server_id = $1 AND hour = m.hour AND bucket = m.day OFFSET 0
          ) AS r
          WHERE m.hour > 0
        UNION ALL
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
      ) AS parts GROUP BY 1, 2
    ), whole_days AS MATERIALIZED (
      SELECT key, u FROM local_days, generate_series(to_timestamp(floor(extract(epoch FROM s) / 86400) * 86400), to_timestamp(floor(extract(epoch FROM e) / 86400) * 86400) - interval '24 hours', interval '24 hours') AS u
    )
    SELECT key || '' || library_id AS key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT w.key, r.library_id, r.plays, r.played_seconds
        FROM whole_days w JOIN play_rollups_by_library_day_prefix r ON r.bucket = w.u
        WHERE r.server_id = $1 AND r.hour = 24 AND r.bucket >= (SELECT min(u) FROM whole_days) AND r.bucket <= (SELECT max(u) FROM whole_days)
      UNION ALL
      SELECT e.key, p.library_id, e.sign * p.plays, e.sign * p.played_seconds FROM edges e JOIN prefixes p USING (x)
    ) AS parts GROUP BY 1 HAVING sum(plays) > 0;
