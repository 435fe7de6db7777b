UPDATE items c SET season_name = p.name FROM items p
         WHERE p.server_id = $1 AND p.last_synced_at >= $2 AND c.server_id = $1 AND c.season_id = p.id
           AND c.season_name IS DISTINCT FROM p.name RETURNING 1;
