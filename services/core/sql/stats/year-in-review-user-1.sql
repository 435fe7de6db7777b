SELECT name FROM media_users WHERE server_id = $1 AND id = $2;
