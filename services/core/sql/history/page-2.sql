SELECT COALESCE(sum(plays), 0)::int AS count FROM play_totals WHERE server_id = $1 AND scope = 'user';
