UPDATE libraries SET tracked = $3, updated_at = now() WHERE server_id = $1 AND id = $2 RETURNING id;
