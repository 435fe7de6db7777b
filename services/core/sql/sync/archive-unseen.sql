UPDATE items i SET archived = true, archived_at = now()
       WHERE i.server_id = $2 AND i.library_id = ANY($3::text[]) AND NOT i.archived
         AND NOT EXISTS (SELECT 1 FROM sync_seen_items s WHERE s.run_id = $1 AND s.item_id = i.id)
       RETURNING 1;
