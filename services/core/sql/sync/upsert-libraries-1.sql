INSERT INTO libraries (server_id, id, name, collection_type, archived, updated_at)
       SELECT $1, l.id, l.name, l.collection_type, false, now() FROM json_to_recordset($2::json) AS l(id text, name text, collection_type text)
       ON CONFLICT (server_id, id) DO UPDATE SET name = EXCLUDED.name, collection_type = EXCLUDED.collection_type,
         archived = false, updated_at = now()
       RETURNING id;
