WITH dates AS MATERIALIZED (
      -- The window's local dates: from its first local midnight, or the one before the first play (all time reads
      -- no empty years), to today.
      SELECT first, last, first::date AS first_date FROM (
        SELECT GREATEST((((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) AT TIME ZONE $2::text, date_trunc('day', (
            SELECT min(bucket) FROM play_rollups_by_library_day_prefix WHERE server_id = $1 AND hour = 24) AT TIME ZONE $2::text)) AS first,
          date_trunc('day', now() AT TIME ZONE $2::text) AS last
      ) AS b
    ), midnights AS MATERIALIZED (
      -- Every local midnight d from the first day's to the one after today's, numbered: midnight n starts day n
      -- and ends day n - 1.
      SELECT g.n::int AS n, g.d, g.d AT TIME ZONE $2::text AS x
      FROM dates, generate_series(dates.first, dates.last + interval '1 day', interval '1 day') WITH ORDINALITY AS g (d, n)
    ), moments AS MATERIALIZED (
      SELECT n, x, date_trunc('day', x, 'UTC') AS day, date_part('hour', x AT TIME ZONE 'UTC')::int AS hour,
        date_trunc('hour', x, 'UTC') AS hour_start,
        date_trunc('hour', x, 'UTC') + (date_part('minute', x AT TIME ZONE 'UTC')::int / 15) * interval '15 minutes' AS quarter
      FROM midnights
    ), utc_days AS MATERIALIZED (
      -- The local day of each whole UTC day: the one holding its last moment.
      SELECT u, (date_trunc('day', (u + interval '1 day' - interval '1 microsecond') AT TIME ZONE $2::text)::date - dates.first_date) + 1 AS n
      FROM dates, generate_series((SELECT min(day) FROM moments), (SELECT max(day) FROM moments) - interval '1 day', interval '1 day') AS u
    ), hour_rows AS MATERIALIZED (
      SELECT bucket, hour, library_id, plays, played_seconds FROM play_rollups_by_library_day_prefix
      WHERE server_id = $1 AND hour = ANY (ARRAY(SELECT DISTINCT hour FROM moments WHERE hour > 0))
        AND bucket >= (SELECT min(day) FROM moments) AND bucket <= (SELECT max(day) FROM moments)
    ), prefixes AS (
      SELECT m.n, r.library_id, r.plays, r.played_seconds
        FROM moments m JOIN hour_rows r ON r.hour = m.hour AND r.bucket = m.day
      UNION ALL
      -- The quarter hours from a moment's hour to its quarter (+05:30, +05:45) as one index range per moment (the
      -- quarters of one moment are adjacent in the key; listing them would cost a probe each), and, only in a zone
      -- whose midnight is not on a quarter hour, the history rows from there. LATERAL, OFFSET 0: not flattened
      -- into a hash join over the whole table.
      SELECT m.n, q.library_id, q.plays, q.played_seconds
        FROM moments m CROSS JOIN LATERAL (
          SELECT library_id, plays, played_seconds FROM play_rollups_by_library
          WHERE server_id = $1 AND bucket >= m.hour_start AND bucket < m.quarter OFFSET 0
        ) AS q
        WHERE m.quarter > m.hour_start
      UNION ALL
      SELECT m.n, h.library_id, 1, h.played_seconds
        FROM moments m CROSS JOIN LATERAL (
          SELECT COALESCE(library_id, '') AS library_id, played_seconds FROM playback_history
          WHERE server_id = $1 AND started_at >= m.quarter AND started_at < m.x OFFSET 0
        ) AS h
        WHERE m.x > m.quarter
    ), cells AS (
      SELECT n, library_id, sum(plays) AS plays, sum(played_seconds) AS played_seconds FROM (
        SELECT u.n, r.library_id, r.plays, r.played_seconds
          FROM play_rollups_by_library_day_prefix r JOIN utc_days u ON u.u = r.bucket
          WHERE r.server_id = $1 AND r.hour = 24
            AND r.bucket >= (SELECT min(day) FROM moments) AND r.bucket < (SELECT max(day) FROM moments)
        UNION ALL
        -- A midnight's prefix leaves the day it starts and joins the day it ends.
        SELECT p.n + k.shift, p.library_id, k.sign * p.plays, k.sign * p.played_seconds
          FROM prefixes p CROSS JOIN (VALUES (0, -1), (-1, 1)) AS k (shift, sign)
      ) AS parts GROUP BY n, library_id
    ), keys AS MATERIALIZED (
      -- The window's days (none before the first or after today) and their keys.
      SELECT n, extract(dow FROM midnights.d)::int::text AS key FROM midnights, dates WHERE midnights.d <= dates.last
    )
    SELECT k.key || '' || c.library_id AS key, sum(c.plays)::int AS plays, sum(c.played_seconds)::bigint AS played_seconds
      FROM cells c JOIN keys k USING (n) GROUP BY k.key, c.library_id HAVING sum(c.plays) > 0;
