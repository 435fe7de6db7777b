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
      SELECT n, x, date_trunc('day', x, 'UTC') AS day,
        date_part('hour', x AT TIME ZONE 'UTC')::int * 4 + date_part('minute', x AT TIME ZONE 'UTC')::int / 15 AS slot,
        date_trunc('hour', x, 'UTC') + (date_part('minute', x AT TIME ZONE 'UTC')::int / 15) * interval '15 minutes' AS quarter
      FROM midnights
    ), plan AS MATERIALIZED (
      -- Per UTC day from the first midnight's to the last one's: (local day, slot, sign) for what its row gives.
      -- The total goes to the local day holding the day's last moment (none for the last midnight's day: its rest
      -- is after the window); a midnight's prefix leaves the day it starts and joins the day it ends.
      SELECT u, (date_trunc('day', (u + interval '1 day' - interval '1 microsecond') AT TIME ZONE $2::text)::date - dates.first_date) + 1 AS n,
        96 AS slot, 1 AS sign
      FROM dates, generate_series((SELECT min(day) FROM moments), (SELECT max(day) FROM moments) - interval '1 day', interval '1 day') AS u
      UNION ALL
      SELECT m.day, m.n + k.shift, m.slot, k.sign FROM moments m CROSS JOIN (VALUES (0, -1), (-1, 1)) AS k (shift, sign) WHERE m.slot > 0
    ), edges AS MATERIALIZED (
      -- The midnights' lowest and highest slots in the window: one per offset, so these two are every slot of a zone
      -- with one or two offsets over the window (DST, or none).
      SELECT COALESCE(min(slot), 0) AS lo, COALESCE(max(slot), 0) AS hi FROM plan WHERE slot < 96
    ), cells AS (
      SELECT n, library_id, sum(plays) AS plays, sum(played_seconds) AS played_seconds FROM (
        -- No midnight inside a UTC day (UTC, or a window of London's winter): only the days' totals, by
        -- index-only scan of 0038's narrow index (the arrays are not read; the branch below is skipped).
        SELECT p.n, r.library_id, p.sign * r.day_plays AS plays, p.sign * r.day_seconds AS played_seconds
          FROM (
            SELECT bucket, library_id, day_plays, day_seconds FROM play_rollups_by_library_day_slots
            WHERE server_id = $1 AND bucket >= (SELECT min(day) FROM moments) AND bucket <= (SELECT max(day) FROM moments)
              AND (SELECT hi FROM edges) = 0
            OFFSET 0
          ) AS r JOIN plan p ON p.u = r.bucket
        UNION ALL
        -- The window's rows as one index range (not a probe per day), each read once and narrowed to the day's
        -- total and the two edge slots before the join to the plan (OFFSET 0: not after it, which hashed the
        -- 1.2 KB rows).
        SELECT p.n, r.library_id,
            p.sign * CASE p.slot WHEN 96 THEN r.day_plays WHEN (SELECT lo FROM edges) THEN r.lo_plays ELSE r.hi_plays END AS plays,
            p.sign * CASE p.slot WHEN 96 THEN r.day_seconds WHEN (SELECT lo FROM edges) THEN r.lo_seconds ELSE r.hi_seconds END AS played_seconds
          FROM (
            SELECT bucket, library_id, day_plays, day_seconds,
              plays[(SELECT lo FROM edges)] AS lo_plays, played_seconds[(SELECT lo FROM edges)] AS lo_seconds,
              plays[(SELECT hi FROM edges)] AS hi_plays, played_seconds[(SELECT hi FROM edges)] AS hi_seconds
            FROM play_rollups_by_library_day_slots
            WHERE server_id = $1 AND bucket >= (SELECT min(day) FROM moments) AND bucket <= (SELECT max(day) FROM moments)
              AND (SELECT hi FROM edges) > 0
            OFFSET 0
          ) AS r JOIN plan p ON p.u = r.bucket
          WHERE p.slot IN (96, (SELECT lo FROM edges), (SELECT hi FROM edges))
        UNION ALL
        -- A midnight slot between the two (an offset that changed more than once in the window): its days' rows
        -- read one UTC day at a time.
        SELECT p.n, r.library_id, p.sign * r.plays[p.slot], p.sign * r.played_seconds[p.slot]
          FROM edges e JOIN plan p ON p.slot > e.lo AND p.slot < e.hi CROSS JOIN LATERAL (
            SELECT library_id, plays, played_seconds FROM play_rollups_by_library_day_slots WHERE server_id = $1 AND bucket = p.u
          ) AS r
        UNION ALL
        -- Only in a zone whose midnight is not on a quarter hour: the history from the midnight's quarter to it.
        -- LATERAL, OFFSET 0: not flattened into a hash join over the whole table.
        SELECT m.n + k.shift, h.library_id, k.sign, k.sign * h.played_seconds
          FROM moments m CROSS JOIN LATERAL (
            SELECT COALESCE(library_id, '') AS library_id, played_seconds FROM playback_history
            WHERE server_id = $1 AND started_at >= m.quarter AND started_at < m.x OFFSET 0
          ) AS h CROSS JOIN (VALUES (0, -1), (-1, 1)) AS k (shift, sign)
          WHERE m.x > m.quarter
      ) AS parts GROUP BY n, library_id
    ), keys AS MATERIALIZED (
      -- The window's days (none before the first or after today) and their keys.
      SELECT n, to_char(midnights.d::date, 'YYYY-MM-DD') AS key FROM midnights, dates WHERE midnights.d <= dates.last
    )
    SELECT k.key || '' || c.library_id AS key, c.plays::int AS plays, c.played_seconds::bigint AS played_seconds
      FROM cells c JOIN keys k USING (n) WHERE c.plays > 0;
