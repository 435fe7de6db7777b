WITH bounds AS MATERIALIZED (
      SELECT start, quarters, to_timestamp(ceil(extract(epoch FROM quarters) / 3600) * 3600) AS hours FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 900) * 900) AS quarters FROM (SELECT ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AS start) AS s) AS q
    ), months AS MATERIALIZED (
      -- Every month whole in the window.
      SELECT m AS month FROM bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_month_quarter WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
      WHERE m AT TIME ZONE 'UTC' >= bounds.hours
    ), midnights AS MATERIALIZED (
      -- The zone's offset at each UTC midnight of those months and at the next one: the months' only zone
      -- conversions. A day whose two midnights have one offset keeps it all day (no zone changes its offset and
      -- back within a day), so its hours' local times are sums. (Two conversions a day cost less than the sort
      -- that lead() needs.)
      SELECT date_trunc('month', d) AS month, d, ((d AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - d AS off, (((d + interval '1 day') AT TIME ZONE 'UTC') AT TIME ZONE $2::text) - (d + interval '1 day') AS next_off
      FROM generate_series((SELECT min(month) FROM months), (SELECT max(month) FROM months) + interval '1 month' - interval '1 day',
        interval '1 day') AS d
    ), refs AS MATERIALIZED (
      -- Each month: whether the zone's offset is the same at all its UTC midnights and the next month's first
      -- (steady), and its reference day: the first of the days of its most common offset that keep it all day (a
      -- steady month's first day). The month's quarter rows are keyed as if every day were that day; the days with
      -- another offset are corrected below. A month without such a day (none in the tz database) is read by hours.
      SELECT DISTINCT ON (c.month) c.month, s.steady, c.ref, c.off FROM (
        SELECT month, off, min(d) AS ref, count(*) AS days FROM midnights WHERE off = next_off GROUP BY month, off
      ) AS c JOIN (SELECT month, bool_and(off = next_off) AS steady FROM midnights GROUP BY month) AS s USING (month)
      ORDER BY c.month, c.days DESC, c.ref
    ), month_offsets AS MATERIALIZED (
      -- The offset each month's quarter rows are read with (the reference day's).
      SELECT (month AT TIME ZONE 'UTC') AS bucket, off FROM refs
    ), fix_days AS MATERIALIZED (
      -- The UTC days (to now) of the months not steady whose offset is not the reference day's all day long.
      SELECT m.d, m.off, m.next_off, refs.ref, refs.off AS ref_off FROM refs JOIN midnights m ON m.month = refs.month
      WHERE NOT refs.steady AND m.d <= date_trunc('day', now() AT TIME ZONE 'UTC')
        AND NOT (m.off = refs.off AND m.next_off = refs.off)
    ), fix_hours AS MATERIALIZED (
      -- Each hour of those days: its key, and the key its quarter rows were given (the same time of the reference
      -- day, which keeps one offset); kept when the zone's offset does not change within it (its quarters' local
      -- times are then sums), whole when all of it falls in one bucket both ways. local and ref_local are its
      -- start's local times on its day and on the reference day. Only the day of a change converts in the zone.
      SELECT d, h, local, ref_local, key, ref_key, kept, kept AND extract(hour FROM (local + interval '45 minutes'))::int::text = key
          AND extract(hour FROM (ref_local + interval '45 minutes'))::int::text = ref_key AS whole
      FROM (
        SELECT d, h, local, ref_local, extract(hour FROM local)::int::text AS key, extract(hour FROM ref_local)::int::text AS ref_key,
          one_offset OR (h + interval '45 minutes') AT TIME ZONE $2::text = local + interval '45 minutes' AS kept
        FROM (
          SELECT d, hh AT TIME ZONE 'UTC' AS h, off = next_off AS one_offset,
              CASE WHEN off = next_off THEN hh + off ELSE (hh AT TIME ZONE 'UTC') AT TIME ZONE $2::text END AS local,
              ref + (hh - d) + ref_off AS ref_local
          FROM fix_days, generate_series(d, d + interval '23 hours', interval '1 hour') AS hh
          WHERE hh AT TIME ZONE 'UTC' <= now()
        ) AS l
      ) AS k
    ), steady_fix_days AS MATERIALIZED (
      -- The fix days that keep one offset all day (all but the days of a change): all their hours move by the same
      -- two offsets, so their rows are read by one index range a day and summed per UTC time of day before they
      -- are keyed, not read and keyed hour by hour: the hour rows when every hour is whole both ways (in a zone
      -- whose offsets are whole hours), else the quarter rows (St John's, Lord Howe).
      SELECT d, d AT TIME ZONE 'UTC' AS h0, off, ref_off, d NOT IN (SELECT d FROM fix_hours WHERE NOT whole) AS by_hours
      FROM fix_days WHERE off = next_off
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
      SELECT extract(hour FROM (timestamp '2000-01-01' + k.off + g.at))::int::text || '' || g.library_id, k.sign * g.plays, k.sign * g.played_seconds
        FROM (
          SELECT w.off, w.ref_off, r.bucket - w.h0 AS at, r.library_id, sum(r.plays) AS plays, sum(r.played_seconds) AS played_seconds
          FROM steady_fix_days w CROSS JOIN LATERAL (
            -- 24 hours, not '1 day': a timestamptz's day follows the session's zone. One branch runs per day.
            SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library_hourly
            WHERE w.by_hours AND server_id = $1 AND bucket >= w.h0 AND bucket < w.h0 + interval '24 hours'
            UNION ALL
            SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library
            WHERE NOT w.by_hours AND server_id = $1 AND bucket >= w.h0 AND bucket < w.h0 + interval '24 hours'
            OFFSET 0
          ) AS r
          GROUP BY w.off, w.ref_off, r.bucket - w.h0, r.library_id
        ) AS g
        CROSS JOIN LATERAL (VALUES (g.off, 1), (g.ref_off, -1)) AS k (off, sign)
      UNION ALL
      SELECT k.key || '' || r.library_id, k.sign * r.plays, k.sign * r.played_seconds
        FROM fix_hours f CROSS JOIN LATERAL (
          -- One index probe per hour (OFFSET 0: the planner, expecting millions of rows, built a huge hash).
          SELECT library_id, plays, played_seconds FROM play_rollups_by_library_hourly WHERE server_id = $1 AND bucket = f.h OFFSET 0
        ) AS r
        CROSS JOIN LATERAL (VALUES (f.key, 1), (f.ref_key, -1)) AS k (key, sign)
        WHERE f.whole AND f.key <> f.ref_key AND f.d NOT IN (SELECT d FROM steady_fix_days)
      UNION ALL
      SELECT k.key || '' || q.library_id, k.sign * q.plays, k.sign * q.played_seconds
        FROM fix_hours f JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= f.h AND q.bucket < f.h + interval '1 hour'
        CROSS JOIN LATERAL (VALUES
          (extract(hour FROM (CASE WHEN f.kept THEN f.local + (q.bucket - f.h) ELSE q.bucket AT TIME ZONE $2::text END))::int::text, 1),
          (extract(hour FROM (f.ref_local + (q.bucket - f.h)))::int::text, -1)) AS k (key, sign)
        WHERE NOT f.whole AND f.d NOT IN (SELECT d FROM steady_fix_days)
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
