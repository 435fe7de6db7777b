SELECT id, name, collection_type, tracked, archived FROM libraries WHERE server_id = $1 ORDER BY name, id;
