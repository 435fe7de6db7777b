SELECT 1 FROM play_card_rollups WHERE server_id = $1 AND kind = 'Series' AND span = 'all' AND bucket = 'epoch'::timestamptz AND key = $2;
