SELECT name, max(started_at) AS started_at FROM task_runs GROUP BY name;
