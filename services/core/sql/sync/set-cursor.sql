INSERT INTO sync_cursors (server_id, name, value, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (server_id, name) DO UPDATE SET value = EXCLUDED.value, updated_at = now() RETURNING 1;
