DELETE FROM item_genres g WHERE server_id = $1 AND item_id = ANY($2::text[])
           AND NOT EXISTS (SELECT 1 FROM json_populate_recordset(NULL::item_genres, $3::json) n WHERE n.item_id = g.item_id AND n.genre = g.genre)
         RETURNING 1;
