WITH ranked AS (
       SELECT user_id, count(*)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM playback_history
       WHERE server_id = $1 AND started_at >= ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) GROUP BY user_id
       ORDER BY plays DESC, played_seconds DESC, user_id LIMIT 20
     )
     SELECT ranked.*, COALESCE(u.name, last.user_name) AS name, u.primary_image_tag AS image_tag FROM ranked
     LEFT JOIN media_users u ON u.server_id = $1 AND u.id = ranked.user_id
     LEFT JOIN LATERAL (
       SELECT user_name FROM playback_history WHERE server_id = $1 AND user_id = ranked.user_id ORDER BY started_at DESC LIMIT 1
     ) AS last ON u.name IS NULL
     ORDER BY plays DESC, played_seconds DESC, COALESCE(u.name, last.user_name), ranked.user_id LIMIT 5;
