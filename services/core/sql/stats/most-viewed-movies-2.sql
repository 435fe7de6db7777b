SELECT key, plays, played_seconds FROM play_card_rollups
     WHERE server_id = $1 AND kind = $2 AND span = 'all' AND bucket = 'epoch'::timestamptz AND plays > 0 AND plays >= COALESCE((SELECT plays FROM play_card_rollups WHERE server_id = $1 AND kind = $2 AND span = 'all' AND bucket = 'epoch'::timestamptz AND plays > 0 ORDER BY plays DESC, key OFFSET 4 LIMIT 1), 1);
