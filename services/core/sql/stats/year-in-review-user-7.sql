WITH users AS (
       SELECT $4::text AS user_id WHERE $4::text IS NOT NULL
       UNION ALL SELECT key FROM play_totals WHERE server_id = $1 AND scope = 'user' AND $4::text IS NULL
     ), inside AS (
       SELECT user_id, started_at, ended_at, plays, played_seconds AS seconds FROM play_binge_runs
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4)
         AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND last_started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
       ORDER BY played_seconds DESC, plays DESC, started_at LIMIT 1
     ), cut AS (
       SELECT c.user_id, part.* FROM (SELECT r.* FROM users u CROSS JOIN LATERAL (
       SELECT * FROM play_binge_runs r WHERE r.server_id = $1 AND r.user_id = u.user_id AND r.started_at < make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text)
       ORDER BY r.started_at DESC LIMIT 1) AS r
     WHERE r.last_started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) UNION SELECT r.* FROM users u CROSS JOIN LATERAL (
       SELECT * FROM play_binge_runs r WHERE r.server_id = $1 AND r.user_id = u.user_id AND r.started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
       ORDER BY r.started_at DESC LIMIT 1) AS r
     WHERE r.last_started_at >= make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)) AS c
       CROSS JOIN LATERAL (
         SELECT min(h.started_at) AS started_at, max(h.started_at + make_interval(secs => h.played_seconds)) AS ended_at, count(*)::int AS plays,
           sum(h.played_seconds)::bigint AS seconds
         FROM playback_history h WHERE h.server_id = $1 AND h.user_id = c.user_id
           AND h.started_at >= GREATEST(c.started_at, make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text)) AND h.started_at <= c.last_started_at AND h.started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
       ) AS part
     )
     SELECT * FROM inside UNION ALL SELECT * FROM cut WHERE plays > 1
     ORDER BY seconds DESC, plays DESC, started_at LIMIT 1;
