UPDATE libraries SET archived = true, updated_at = now()
       WHERE server_id = $1 AND NOT archived AND NOT (id = ANY($2::text[])) RETURNING id;
