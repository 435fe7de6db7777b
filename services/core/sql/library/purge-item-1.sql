DELETE FROM items WHERE server_id = $1 AND (id = $2 OR series_id = $2 OR season_id = $2 OR parent_id = $2) RETURNING id;
