SELECT count(*)::int AS n FROM sync_seen_items WHERE run_id = $1 AND library_id = $2;
