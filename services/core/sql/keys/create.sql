INSERT INTO api_keys (name, key_hash, key_preview) VALUES ($1, $2, $3);
