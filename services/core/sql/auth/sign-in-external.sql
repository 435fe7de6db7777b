INSERT INTO sign_in_accounts (method, subject, username, role, server_id, media_user_id)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (method, subject) DO UPDATE SET username = EXCLUDED.username, role = EXCLUDED.role,
         server_id = EXCLUDED.server_id, media_user_id = EXCLUDED.media_user_id, last_sign_in_at = now()
       RETURNING id, method, username, role, token_version, server_id, media_user_id;
