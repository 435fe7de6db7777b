SELECT c.key, c.viewers, a.plays, a.played_seconds FROM play_card_viewer_counts c
     CROSS JOIN LATERAL (
       SELECT plays, played_seconds FROM play_card_rollups
       WHERE server_id = $1 AND kind = $2 AND span = 'all' AND bucket = 'epoch'::timestamptz AND key = c.key LIMIT 1
     ) AS a
     WHERE c.server_id = $1 AND c.kind = $2 AND c.viewers > 0 AND c.viewers >= COALESCE((
       SELECT viewers FROM play_card_viewer_counts WHERE server_id = $1 AND kind = $2 AND viewers > 0
       ORDER BY viewers DESC, key OFFSET 4 LIMIT 1), 1);
