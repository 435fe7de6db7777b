UPDATE task_runs SET result = $2, message = $3, finished_at = now(), heartbeat_at = now(),
           progress = CASE WHEN $2 = 'Success' THEN 100 ELSE progress END
         WHERE id = $1 RETURNING id;
