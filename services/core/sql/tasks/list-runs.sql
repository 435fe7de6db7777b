SELECT r.*, COALESCE(l.lines, '[]'::json) AS lines
       FROM (SELECT * FROM task_runs ORDER BY started_at DESC, id LIMIT $1 OFFSET $2) r
       LEFT JOIN LATERAL (
         SELECT json_agg(json_build_object('message', message, 'color', color, 'at', at) ORDER BY id) AS lines
         FROM task_run_logs WHERE run_id = r.id
       ) l ON true
       ORDER BY r.started_at DESC, r.id;
