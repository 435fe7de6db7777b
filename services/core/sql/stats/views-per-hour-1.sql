SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (

      SELECT extract(hour FROM bucket AT TIME ZONE $2::text)::int::text || '' || library_id AS key, plays, played_seconds FROM play_rollups
        WHERE server_id = $1 AND bucket >= to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)
      UNION ALL
      SELECT extract(hour FROM started_at AT TIME ZONE $2::text)::int::text || '' || COALESCE(library_id, '') AS key, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AND started_at < to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)
    ) AS parts GROUP BY key HAVING sum(plays) > 0;
