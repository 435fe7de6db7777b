SELECT id FROM media_users WHERE server_id = $1 AND NOT tracked ORDER BY id;
