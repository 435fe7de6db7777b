SELECT s.item_id FROM sync_seen_items s
       LEFT JOIN items i ON i.server_id = s.server_id AND i.id = s.item_id
       WHERE s.run_id = $1 AND s.server_id = $2 AND s.library_id = $3
         AND (i.id IS NULL OR i.archived OR i.library_id IS DISTINCT FROM s.library_id
              OR s.etag IS NULL OR i.etag IS DISTINCT FROM s.etag);
