WITH gone AS (DELETE FROM items WHERE server_id = $1 AND library_id = $2 RETURNING 1) SELECT count(*)::int AS count FROM gone;
