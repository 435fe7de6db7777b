SELECT count(*)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS played_seconds FROM playback_history
       WHERE server_id = $1 AND library_id = $2 AND started_at >= $3 AND started_at < $4;
