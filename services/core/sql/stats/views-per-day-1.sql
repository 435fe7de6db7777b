WITH dates AS MATERIALIZED (
      -- The window's local dates: from its first local midnight, or the one before the first play (all time reads
      -- no empty years), to today.
      SELECT first, last, first::date AS first_date FROM (
        SELECT GREATEST((((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) AT TIME ZONE $2::text, date_trunc('day', (
            SELECT min(bucket) FROM play_rollups_by_library_day_slots WHERE server_id = $1) AT TIME ZONE $2::text)) AS first,
          date_trunc('day', now() AT TIME ZONE $2::text) AS last
      ) AS b
    ), midnights AS MATERIALIZED (
      -- Every local midnight d from the first day's to the one after today's, numbered: midnight n starts day n
      -- and ends day n - 1.
      SELECT g.n::int AS n, g.d, g.d AT TIME ZONE $2::text AS x
      FROM dates, generate_series(dates.first, dates.last + interval '1 day', interval '1 day') WITH ORDINALITY AS g (d, n)
    ), moments AS MATERIALIZED (
      -- Each midnight's UTC day, the whole quarter hours of that day before it (its slot), and its quarter's start.
      SELECT n, d, x, date_trunc('day', x, 'UTC') AS day,
        date_part('hour', x AT TIME ZONE 'UTC')::int * 4 + date_part('minute', x AT TIME ZONE 'UTC')::int / 15 AS slot,
        date_trunc('hour', x, 'UTC') + (date_part('minute', x AT TIME ZONE 'UTC')::int / 15) * interval '15 minutes' AS quarter
      FROM midnights
    ), edges AS MATERIALIZED (
      SELECT COALESCE(min(slot) FILTER (WHERE slot > 0), 0) AS lo, COALESCE(max(slot), 0) AS hi FROM moments
    )
    SELECT n, (extract(epoch FROM day) / 86400)::int AS day, slot, (d::date - date '1970-01-01') AS date, NULL AS library_id,
        NULL::int AS plays, NULL::bigint AS played_seconds, NULL::int AS lo_plays, NULL::bigint AS lo_seconds, NULL::int AS hi_plays, NULL::bigint AS hi_seconds
      FROM moments
    UNION ALL
    -- No midnight inside a UTC day: the totals by index-only scan of 0038's narrow index (the arrays not read).
    SELECT NULL::int, (extract(epoch FROM bucket) / 86400)::int, NULL, NULL, library_id, day_plays, day_seconds, NULL, NULL, NULL, NULL
      FROM play_rollups_by_library_day_slots WHERE server_id = $1 AND bucket >= (SELECT min(day) FROM moments) AND bucket <= (SELECT max(day) FROM moments) AND (SELECT hi FROM edges) = 0
    UNION ALL
    SELECT NULL::int, (extract(epoch FROM bucket) / 86400)::int, NULL, NULL, library_id, day_plays, day_seconds,
        plays[(SELECT lo FROM edges)], played_seconds[(SELECT lo FROM edges)], plays[(SELECT hi FROM edges)], played_seconds[(SELECT hi FROM edges)]
      FROM play_rollups_by_library_day_slots WHERE server_id = $1 AND bucket >= (SELECT min(day) FROM moments) AND bucket <= (SELECT max(day) FROM moments) AND (SELECT hi FROM edges) > 0
    UNION ALL
    SELECT m.n, NULL, NULL, NULL, r.library_id, r.plays[m.slot], r.played_seconds[m.slot], NULL, NULL, NULL, NULL
      FROM edges e JOIN moments m ON m.slot > e.lo AND m.slot < e.hi CROSS JOIN LATERAL (
        SELECT library_id, plays, played_seconds FROM play_rollups_by_library_day_slots WHERE server_id = $1 AND bucket = m.day
      ) AS r
    UNION ALL
    SELECT m.n, NULL, NULL, NULL, h.library_id, count(*)::int, sum(h.played_seconds)::bigint, NULL, NULL, NULL, NULL
      FROM moments m CROSS JOIN LATERAL (
        SELECT COALESCE(library_id, '') AS library_id, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= m.quarter AND started_at < m.x OFFSET 0
      ) AS h
      WHERE m.x > m.quarter
      GROUP BY m.n, h.library_id;
