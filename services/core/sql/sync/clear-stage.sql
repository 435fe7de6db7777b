DELETE FROM sync_seen_items WHERE run_id = $1 OR created_at < now() - interval '1 day' RETURNING 1;
