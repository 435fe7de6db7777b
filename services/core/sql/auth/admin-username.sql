SELECT username FROM admin_accounts ORDER BY id LIMIT 1;
