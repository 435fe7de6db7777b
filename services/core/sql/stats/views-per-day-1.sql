WITH bounds AS MATERIALIZED (
      SELECT start, quarters, to_timestamp(ceil(extract(epoch FROM quarters) / 3600) * 3600) AS hours FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 900) * 900) AS quarters FROM (SELECT ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AS start) AS s) AS q
    ), hours AS MATERIALIZED (
      SELECT h, to_char(local::date, 'YYYY-MM-DD') AS key, to_char((local + interval '45 minutes')::date, 'YYYY-MM-DD') = to_char(local::date, 'YYYY-MM-DD')
          AND (h + interval '45 minutes') AT TIME ZONE $2::text = local + interval '45 minutes' AS whole
      FROM bounds, generate_series(
          GREATEST(bounds.hours, (SELECT min(bucket) FROM play_rollups_by_library_hourly WHERE server_id = $1)), now(), interval '1 hour') AS h,
        LATERAL (SELECT h AT TIME ZONE $2::text AS local) AS l
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT hours.key || '' || r.library_id AS key, r.plays, r.played_seconds
        FROM play_rollups_by_library_hourly r JOIN hours ON hours.h = r.bucket AND hours.whole
        WHERE r.server_id = $1 AND r.bucket >= (SELECT hours FROM bounds)
      UNION ALL
      SELECT to_char((q.bucket AT TIME ZONE $2::text)::date, 'YYYY-MM-DD') || '' || q.library_id, q.plays, q.played_seconds
        FROM hours JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= hours.h AND q.bucket < hours.h + interval '1 hour'
        WHERE NOT hours.whole
      UNION ALL
      SELECT to_char((bucket AT TIME ZONE $2::text)::date, 'YYYY-MM-DD') || '' || library_id, plays, played_seconds FROM play_rollups_by_library
        WHERE server_id = $1 AND bucket >= (SELECT quarters FROM bounds) AND bucket < (SELECT hours FROM bounds)
      UNION ALL
      SELECT to_char((started_at AT TIME ZONE $2::text)::date, 'YYYY-MM-DD') || '' || COALESCE(library_id, ''), 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (SELECT start FROM bounds) AND started_at < (SELECT quarters FROM bounds)
    ) AS parts GROUP BY key HAVING sum(plays) > 0;
