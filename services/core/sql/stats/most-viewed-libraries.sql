SELECT w.*, l.name, l.collection_type, l.primary_image_hash AS image_hash, l.archived
     FROM (SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT library_id AS key, plays, played_seconds FROM play_rollups_daily
        WHERE server_id = $1 AND bucket >= to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)) / 86400) * 86400) AND library_id <> ''
      UNION ALL
      SELECT library_id AS key, plays, played_seconds FROM play_rollups
        WHERE server_id = $1 AND bucket >= to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900) AND bucket < to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)) / 86400) * 86400) AND library_id <> ''
      UNION ALL
      SELECT COALESCE(library_id, '') AS key, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AND started_at < to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900) AND library_id IS NOT NULL
    ) AS parts GROUP BY key HAVING sum(plays) > 0) AS w
     LEFT JOIN libraries l ON l.server_id = $1 AND l.id = w.key
     ORDER BY w.plays DESC, w.played_seconds DESC, l.name, w.key LIMIT 5;
