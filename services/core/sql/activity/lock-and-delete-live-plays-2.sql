DELETE FROM live_sessions WHERE server_id = $1 AND play_key = ANY($2::text[]) RETURNING 1 AS deleted;
