INSERT INTO admin_accounts (username, password_hash) VALUES ($1, $2) RETURNING id, username, password_hash, token_version;
