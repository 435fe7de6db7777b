WITH hours AS (
      SELECT h, extract(minute FROM h AT TIME ZONE $2::text) = 0
          AND (h + interval '45 minutes') AT TIME ZONE $2::text = (h AT TIME ZONE $2::text) + interval '45 minutes' AS whole
      FROM generate_series(
        GREATEST(to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)) / 3600) * 3600), (SELECT min(bucket) FROM play_rollups_by_library_hourly WHERE server_id = $1)), now(), interval '1 hour') AS h
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT to_char((r.bucket AT TIME ZONE $2::text)::date, 'YYYY-MM-DD') || '' || r.library_id AS key, r.plays, r.played_seconds
        FROM play_rollups_by_library_hourly r JOIN hours ON hours.h = r.bucket AND hours.whole
        WHERE r.server_id = $1 AND r.bucket >= to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)) / 3600) * 3600)
      UNION ALL
      SELECT to_char((q.bucket AT TIME ZONE $2::text)::date, 'YYYY-MM-DD') || '' || q.library_id, q.plays, q.played_seconds
        FROM hours JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= hours.h AND q.bucket < hours.h + interval '1 hour'
        WHERE NOT hours.whole
      UNION ALL
      SELECT to_char((bucket AT TIME ZONE $2::text)::date, 'YYYY-MM-DD') || '' || library_id, plays, played_seconds FROM play_rollups_by_library
        WHERE server_id = $1 AND bucket >= to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900) AND bucket < to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)) / 3600) * 3600)
      UNION ALL
      SELECT to_char((started_at AT TIME ZONE $2::text)::date, 'YYYY-MM-DD') || '' || COALESCE(library_id, ''), 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AND started_at < to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)
    ) AS parts GROUP BY key HAVING sum(plays) > 0;
