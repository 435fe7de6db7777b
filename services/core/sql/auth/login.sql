SELECT id, username, password_hash, token_version FROM admin_accounts WHERE lower(username) = lower($1);
