SELECT c.key, c.viewers, a.plays, a.played_seconds FROM play_card_viewer_counts c
     JOIN play_card_rollups a ON a.server_id = c.server_id AND a.kind = c.kind AND a.span = 'all' AND a.bucket = 'epoch'::timestamptz AND a.key = c.key
     WHERE c.server_id = $1 AND c.kind = $2 AND c.viewers > 0 AND c.viewers >= COALESCE((
       SELECT viewers FROM play_card_viewer_counts WHERE server_id = $1 AND kind = $2 AND viewers > 0
       ORDER BY viewers DESC, key OFFSET 4 LIMIT 1), 1);
