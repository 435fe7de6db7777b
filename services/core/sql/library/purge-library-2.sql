DELETE FROM libraries WHERE server_id = $1 AND id = $2 RETURNING id;
