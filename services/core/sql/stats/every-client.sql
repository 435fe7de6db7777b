SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT client AS key, plays, played_seconds FROM play_rollups_daily
        WHERE server_id = $1 AND bucket >= to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)) / 86400) * 86400) AND client <> ''
      UNION ALL
      SELECT client AS key, plays, played_seconds FROM play_rollups
        WHERE server_id = $1 AND bucket >= to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900) AND bucket < to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900)) / 86400) * 86400) AND client <> ''
      UNION ALL
      SELECT COALESCE(client, '') AS key, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AND started_at < to_timestamp(ceil(extract(epoch FROM ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text)) / 900) * 900) AND client IS NOT NULL
    ) AS parts GROUP BY key HAVING sum(plays) > 0
     ORDER BY plays DESC, played_seconds DESC, key;
