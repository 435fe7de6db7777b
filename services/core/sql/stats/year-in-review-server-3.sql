SELECT CASE WHEN series_id IS NULL THEN 'item' ELSE 'series' END AS kind, COALESCE(series_id, item_id) AS key, sum(w)::int AS plays, sum(w * played_seconds)::bigint AS seconds,
       bool_or(w > 0) AS added
     FROM (SELECT item_id, series_id, played_seconds, 1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC')
       UNION ALL SELECT item_id, series_id, played_seconds, -1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC') AND started_at < make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text)
       UNION ALL SELECT item_id, series_id, played_seconds, 1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC') AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
       UNION ALL SELECT item_id, series_id, played_seconds, -1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC')) AS edges GROUP BY 1, 2;
