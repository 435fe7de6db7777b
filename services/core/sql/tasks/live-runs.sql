SELECT * FROM task_runs WHERE result = 'Running' AND name = ANY($1::text[])
         AND heartbeat_at > now() - make_interval(secs => $2) ORDER BY started_at;
