DELETE FROM media_sources WHERE server_id = $1 AND item_id = ANY($2::text[]) RETURNING 1;
