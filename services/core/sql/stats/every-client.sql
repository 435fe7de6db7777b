WITH bounds AS MATERIALIZED (
      SELECT start, days, (date_trunc('month', days AT TIME ZONE 'UTC') + CASE WHEN days = date_trunc('month', days AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
          THEN interval '0' ELSE interval '1 month' END) AT TIME ZONE 'UTC' AS months,
        COALESCE((SELECT min(started_at) FROM playback_history WHERE server_id = $1) >= start, true) AS everything
      FROM (SELECT start, to_timestamp(ceil(extract(epoch FROM start) / 86400) * 86400) AS days
            FROM (SELECT ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AS start) AS s) AS d
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT key, plays, played_seconds FROM play_card_rollups
        WHERE server_id = $1 AND kind = 'client' AND span = 'all' AND bucket = 'epoch'::timestamptz AND (SELECT everything FROM bounds)
      UNION ALL
      SELECT key, plays, played_seconds FROM play_card_rollups
        WHERE server_id = $1 AND kind = 'client' AND span = 'month' AND bucket >= (SELECT months FROM bounds) AND NOT (SELECT everything FROM bounds)
      UNION ALL
      SELECT key, plays, played_seconds FROM play_card_rollups
        WHERE server_id = $1 AND kind = 'client' AND span = 'day' AND bucket >= (SELECT days FROM bounds) AND bucket < (SELECT months FROM bounds)
          AND NOT (SELECT everything FROM bounds)
      UNION ALL
      SELECT client, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (SELECT start FROM bounds) AND started_at < (SELECT days FROM bounds)
          AND NOT (SELECT everything FROM bounds) AND client <> ''
    ) AS parts GROUP BY key HAVING sum(plays) > 0
     ORDER BY plays DESC, played_seconds DESC, key;
