UPDATE task_runs SET heartbeat_at = now(), progress = $2 WHERE id = $1 AND result = 'Running' RETURNING id;
