INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, $2, $2, false)
     ON CONFLICT (server_id, id) DO UPDATE SET tracked = NOT media_users.tracked, updated_at = now()
     RETURNING tracked;
