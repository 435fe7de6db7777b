SELECT count(*)::int AS count FROM media_users u WHERE u.server_id = $1 AND EXISTS (
       SELECT 1 FROM playback_history h WHERE h.server_id = $1 AND h.user_id = u.id
         AND h.started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND h.started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text));
