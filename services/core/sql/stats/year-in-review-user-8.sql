(SELECT 'first' AS kind, started_at, COALESCE(series_name || ' - ' || item_name, item_name) AS title, user_name
       FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND ($4::text IS NULL OR user_id = $4) ORDER BY started_at, id LIMIT 1)
     UNION ALL
     (SELECT 'last', started_at, COALESCE(series_name || ' - ' || item_name, item_name), user_name
       FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND ($4::text IS NULL OR user_id = $4) ORDER BY started_at DESC, id DESC LIMIT 1);
