SELECT id, library_id FROM items WHERE server_id = $1 AND id = ANY($2::text[]);
