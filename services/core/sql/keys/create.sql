INSERT INTO api_keys (name, key_hash, key_preview, created_by) VALUES ($1, $2, $3, $4);
