SELECT recent.*, i.archived, i.primary_image_hash AS image_hash FROM (
       SELECT DISTINCT ON (item_id) item_id, item_name, item_type, series_id, series_name, season_number, episode_number, user_id,
         user_name, started_at
       FROM (
         SELECT * FROM playback_history WHERE server_id = $1 AND library_id = $2
         ORDER BY started_at DESC LIMIT 200
       ) AS latest
       ORDER BY item_id, started_at DESC
     ) AS recent
     LEFT JOIN items i ON i.server_id = $1 AND i.id = COALESCE(recent.series_id, recent.item_id)
     ORDER BY recent.started_at DESC LIMIT 15;
