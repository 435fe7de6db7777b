SELECT id, method, username, role, token_version, server_id, media_user_id FROM sign_in_accounts WHERE id = $1;
