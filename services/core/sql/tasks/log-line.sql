INSERT INTO task_run_logs (run_id, message, color) VALUES ($1, $2, $3) RETURNING id;
