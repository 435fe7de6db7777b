INSERT INTO task_runs (id, name, type, execution_type, result, progress, instance_id, started_at, heartbeat_at)
       VALUES ($1, $2, $3, $4, 'Running', 0, $5, now(), now())
       ON CONFLICT (id) DO UPDATE SET instance_id = EXCLUDED.instance_id, started_at = now(), heartbeat_at = now()
       WHERE task_runs.result = 'Running'
       RETURNING id;
