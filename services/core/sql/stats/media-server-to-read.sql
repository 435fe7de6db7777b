SELECT m.id, m.kind, (SELECT max(id) FROM playback_history) AS last_id,
         (SELECT sum(plays) FROM play_totals t WHERE t.server_id = m.id AND t.scope = 'user') AS plays,
         (SELECT sum(played_seconds) FROM play_totals t WHERE t.server_id = m.id AND t.scope = 'user') AS seconds
       FROM media_servers m WHERE $1::text IS NULL OR m.id::text = $1 ORDER BY m.is_default DESC, m.created_at LIMIT 1;
