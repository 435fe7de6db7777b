UPDATE media_users SET removed_at = now(), updated_at = now()
       WHERE server_id = $1 AND removed_at IS NULL AND NOT (id = ANY($2::text[])) RETURNING id;
