UPDATE task_runs SET result = 'Failed', finished_at = heartbeat_at,
         message = 'The process running this task stopped before it finished'
       WHERE result = 'Running' AND heartbeat_at < now() - make_interval(secs => $1) RETURNING *;
