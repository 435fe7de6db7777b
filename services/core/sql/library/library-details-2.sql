SELECT l.id, t.plays, t.played_seconds, last.item_name, last.series_name, last.started_at
       FROM libraries l
       LEFT JOIN play_totals t ON t.server_id = $1 AND t.scope = 'library' AND t.key = l.id
       LEFT JOIN LATERAL (
         SELECT item_name, series_name, started_at FROM playback_history WHERE server_id = $1 AND library_id = l.id
         ORDER BY started_at DESC LIMIT 1
       ) AS last ON true
       WHERE l.server_id = $1 AND l.id = $2;
