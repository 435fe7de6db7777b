SELECT id, name, key_preview, created_at, last_used_at, created_by FROM api_keys ORDER BY created_at, id;
