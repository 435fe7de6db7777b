WITH bounds AS MATERIALIZED (
      SELECT start, quarters, to_timestamp(ceil(extract(epoch FROM quarters) / 3600) * 3600) AS hours FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 900) * 900) AS quarters FROM (SELECT ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AS start) AS s) AS q
    ), months AS MATERIALIZED (
      -- Every month whole in the window, and whether the zone's offset is the same at each of its UTC midnights.
      SELECT m AS month, (
        SELECT count(DISTINCT ((d AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - d) FROM generate_series(m, m + interval '1 month', interval '1 day') AS d) = 1 AS steady
      FROM bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_month_quarter WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
      WHERE m AT TIME ZONE 'UTC' >= bounds.hours
    ), refs AS MATERIALIZED (
      -- Each month's reference day: its first in a steady month; else a UTC day of the month's most common offset
      -- that keeps it all day (one whose next midnight has the same offset). The month's quarter rows are keyed as
      -- if every day were that day; the days with another offset are corrected below. A month without such a day
      -- (none in the tz database) is read by hours.
      SELECT months.month, months.steady, COALESCE(r.ref, months.month) AS ref FROM months LEFT JOIN LATERAL (
        SELECT d AS ref FROM (
          SELECT d, count(*) OVER (PARTITION BY off) AS days FROM (
            SELECT d, ((d AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - d AS off, (((d + interval '1 day') AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - (d + interval '1 day') AS next_off
            -- (no days for a steady month: a LEFT JOIN's condition would not spare the lateral's work)
            FROM generate_series(months.month, months.month + CASE WHEN months.steady THEN interval '-1 day'
              ELSE interval '1 month' - interval '1 day' END, interval '1 day') AS d
          ) AS o WHERE off = next_off
        ) AS s ORDER BY days DESC, d LIMIT 1
      ) AS r ON true
      WHERE months.steady OR r.ref IS NOT NULL
    ), month_offsets AS MATERIALIZED (
      -- The offset each month's quarter rows are read with (the reference day's).
      SELECT (month AT TIME ZONE 'UTC') AS bucket, ((ref AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - ref AS off FROM refs
    ), fix_days AS MATERIALIZED (
      -- The UTC days (to now) of the months not steady whose offset is not the reference day's all day long.
      SELECT d, ref FROM refs, generate_series(refs.month,
          LEAST(refs.month + interval '1 month' - interval '1 day', date_trunc('day', now() AT TIME ZONE 'UTC')), interval '1 day') AS d
      WHERE NOT refs.steady AND NOT (((d AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - d = ((ref AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - ref AND (((d + interval '1 day') AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - (d + interval '1 day') = ((ref AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - ref)
    ), fix_hours AS MATERIALIZED (
      -- Each hour of those days: its key, and the key its quarter rows were given (the same time of the reference
      -- day); whole when all of it falls in one bucket both ways. rh is the hour's time on the reference day.
      SELECT h, rh, key, ref_key, extract(hour FROM (local + interval '45 minutes'))::int::text = key
          AND (h + interval '45 minutes') AT TIME ZONE $2::text = local + interval '45 minutes'
          AND extract(hour FROM (ref_local + interval '45 minutes'))::int::text = ref_key AS whole
      FROM (
        SELECT h, rh, local, ref_local, extract(hour FROM local)::int::text AS key, extract(hour FROM ref_local)::int::text AS ref_key FROM (
          SELECT hh AT TIME ZONE 'UTC' AS h, ref + (hh - d) AS rh, (hh AT TIME ZONE 'UTC') AT TIME ZONE $2::text AS local,
              ((ref + (hh - d)) AT TIME ZONE 'UTC') AT TIME ZONE $2::text AS ref_local
          FROM fix_days, generate_series(d, d + interval '23 hours', interval '1 hour') AS hh
          WHERE hh AT TIME ZONE 'UTC' <= now()
        ) AS l
      ) AS k
    ), hour_ranges AS MATERIALIZED (
      -- The months (or their part in the window) read by hours, as UTC ranges.
      SELECT GREATEST(f.first, m AT TIME ZONE 'UTC') AS first_hour, LEAST(now(), (m + interval '1 month' - interval '1 hour') AT TIME ZONE 'UTC') AS last_hour
      FROM bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_hourly WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
      WHERE m NOT IN (SELECT month FROM refs)
    ), slot_days AS MATERIALIZED (
      SELECT d AT TIME ZONE 'UTC' AS day, ((d AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - d AS off
      FROM hour_ranges x, generate_series(date_trunc('day', x.first_hour AT TIME ZONE 'UTC'), date_trunc('day', x.last_hour AT TIME ZONE 'UTC'),
        interval '1 day') AS d
      WHERE d AT TIME ZONE 'UTC' >= x.first_hour
        AND ((d + interval '23 hours') AT TIME ZONE 'UTC' <= x.last_hour OR x.last_hour = now())
        AND ((d AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - d = (((d + interval '1 day') AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - (d + interval '1 day') AND date_part('minute', ((d AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - d) <> 0
    ), hours AS MATERIALIZED (
      SELECT h, extract(hour FROM local)::int::text AS key, extract(hour FROM (local + interval '45 minutes'))::int::text = extract(hour FROM local)::int::text
          AND (h + interval '45 minutes') AT TIME ZONE $2::text = local + interval '45 minutes' AS whole
      FROM bounds, hour_ranges, generate_series(first_hour, last_hour, interval '1 hour') AS h,
        LATERAL (SELECT h AT TIME ZONE $2::text AS local) AS l
      WHERE NOT EXISTS (SELECT 1 FROM slot_days s WHERE s.day = date_trunc('day', h, 'UTC'))
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT extract(hour FROM (timestamp '2000-01-01' + s.off + s.quarter * interval '15 minutes'))::int::text || '' || s.library_id AS key,
          s.plays, s.played_seconds
        FROM (
          SELECT mo.off, r.quarter, r.library_id, sum(r.plays) AS plays, sum(r.played_seconds) AS played_seconds
          FROM month_offsets mo CROSS JOIN LATERAL (
            SELECT quarter, library_id, plays, played_seconds FROM play_rollups_by_library_month_quarter
            WHERE server_id = $1 AND bucket = mo.bucket OFFSET 0
          ) AS r
          GROUP BY mo.off, r.quarter, r.library_id
        ) AS s
      UNION ALL
      SELECT k.key || '' || r.library_id, k.sign * r.plays, k.sign * r.played_seconds
        FROM fix_hours f CROSS JOIN LATERAL (
          -- One index probe per hour (OFFSET 0: the planner, expecting millions of rows, built a huge hash).
          SELECT library_id, plays, played_seconds FROM play_rollups_by_library_hourly WHERE server_id = $1 AND bucket = f.h OFFSET 0
        ) AS r
        CROSS JOIN LATERAL (VALUES (f.key, 1), (f.ref_key, -1)) AS k (key, sign)
        WHERE f.whole AND f.key <> f.ref_key
      UNION ALL
      SELECT k.key || '' || q.library_id, k.sign * q.plays, k.sign * q.played_seconds
        FROM fix_hours f JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= f.h AND q.bucket < f.h + interval '1 hour'
        CROSS JOIN LATERAL (VALUES
          (extract(hour FROM (q.bucket AT TIME ZONE $2::text))::int::text, 1),
          (extract(hour FROM (((f.rh + (q.bucket - f.h)) AT TIME ZONE 'UTC') AT TIME ZONE $2::text))::int::text, -1)) AS k (key, sign)
        WHERE NOT f.whole
      UNION ALL
      SELECT extract(hour FROM (timestamp '2000-01-01' + s.off + (s.slot - 1) * interval '15 minutes'))::int::text || '' || s.library_id AS key,
          s.plays, s.played_seconds
        FROM (
          SELECT off, slot, library_id, plays - COALESCE(lag(plays) OVER w, 0) AS plays,
            played_seconds - COALESCE(lag(played_seconds) OVER w, 0) AS played_seconds
          FROM (
            -- The arrays unnested in the select list, side by side (a lateral unnest was memoized per array and
            -- sorted: twice the time), then hashed per offset, slot and library.
            SELECT off, slot, library_id, sum(plays) AS plays, sum(played_seconds) AS played_seconds FROM (
              SELECT sd.off, r.library_id, unnest(r.plays) AS plays, unnest(r.played_seconds) AS played_seconds,
                generate_series(1, 96) AS slot
              FROM slot_days sd CROSS JOIN LATERAL (
                SELECT library_id, plays, played_seconds FROM play_rollups_by_library_day_slots WHERE server_id = $1 AND bucket = sd.day OFFSET 0
              ) AS r
              OFFSET 0
            ) AS slots
            GROUP BY off, slot, library_id
          ) AS running
          WINDOW w AS (PARTITION BY off, library_id ORDER BY slot)
        ) AS s
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
