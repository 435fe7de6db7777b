SELECT u.id, u.name, u.primary_image_tag, u.tracked, t.plays, t.played_seconds, last.item_id, last.item_name, last.series_name,
       last.client, last.started_at, u.last_activity_at
     FROM media_users u
     LEFT JOIN play_totals t ON t.server_id = $1 AND t.scope = 'user' AND t.key = u.id
     LEFT JOIN user_last_plays last ON last.server_id = $1 AND last.user_id = u.id
     WHERE u.server_id = $1 AND u.removed_at IS NULL
     ORDER BY lower(u.name), u.id;
