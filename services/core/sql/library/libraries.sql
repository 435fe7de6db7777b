SELECT id, name, collection_type, archived FROM libraries WHERE server_id = $1 ORDER BY lower(name), id;
