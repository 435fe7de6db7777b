DELETE FROM task_runs WHERE result <> 'Running' AND started_at < now() - make_interval(days => $1) RETURNING id;
