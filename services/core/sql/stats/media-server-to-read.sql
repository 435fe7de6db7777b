SELECT s.id, s.kind, (SELECT max(id) FROM playback_history) AS last_id, t.plays, t.seconds
       FROM (SELECT id, kind FROM media_servers m WHERE $1::text IS NULL OR m.id::text = $1 ORDER BY m.is_default DESC, m.created_at LIMIT 1) AS s
       CROSS JOIN LATERAL (
         SELECT sum(plays) AS plays, sum(played_seconds) AS seconds FROM play_totals t WHERE t.server_id = s.id AND t.scope = 'user'
       ) AS t;
