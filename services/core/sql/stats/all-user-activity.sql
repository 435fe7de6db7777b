SELECT u.id, u.name, u.primary_image_tag, u.tracked, t.plays, t.played_seconds, last.item_id, last.item_name, last.series_name,
       last.client, last.started_at, u.last_activity_at
     FROM media_users u
     LEFT JOIN play_totals t ON t.server_id = $1 AND t.scope = 'user' AND t.key = u.id
     LEFT JOIN LATERAL (
       SELECT item_id, item_name, series_name, client, started_at FROM playback_history
       WHERE server_id = $1 AND user_id = u.id ORDER BY started_at DESC LIMIT 1
     ) AS last ON true
     WHERE u.server_id = $1 AND u.removed_at IS NULL
     ORDER BY lower(u.name), u.id;
