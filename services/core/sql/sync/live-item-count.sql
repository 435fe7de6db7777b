SELECT count(*)::int AS n FROM items WHERE server_id = $1 AND library_id = $2 AND NOT archived;
