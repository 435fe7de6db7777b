SELECT id, username, password_hash, token_version FROM admin_accounts WHERE id = $1;
