INSERT INTO sync_seen_items (run_id, server_id, item_id, library_id, etag)
       SELECT $1, $2, s.item_id, $3, s.etag FROM json_to_recordset($4::json) AS s(item_id text, etag text)
       ON CONFLICT (run_id, item_id) DO NOTHING RETURNING 1;
