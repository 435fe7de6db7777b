WITH page AS (
         SELECT id FROM playback_history WHERE server_id = $1 AND (item_id = $2 OR series_id = $2 OR season_id = $2)
         ORDER BY started_at DESC, id DESC LIMIT 25 OFFSET 0
       )
       SELECT id, user_id, user_name, remote_end_point, series_id, series_name, season_number, episode_number, item_id, item_name,
         client, play_method, device_name, started_at, played_seconds, transcoding_info, stream_details, library_id
       FROM playback_history WHERE id IN (SELECT id FROM page)
       ORDER BY started_at DESC, id DESC;
