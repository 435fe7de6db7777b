SELECT id, name FROM libraries WHERE server_id = $1 ORDER BY lower(name), id;
