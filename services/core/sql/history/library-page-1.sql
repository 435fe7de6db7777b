WITH page AS (
      SELECT id FROM playback_history WHERE server_id = $1 AND library_id = $2 ORDER BY started_at DESC, id DESC LIMIT 25 OFFSET 0
    )
       SELECT id, user_id, user_name, remote_end_point, series_id, series_name, season_number, episode_number, item_id, item_name,
         client, play_method, device_name, started_at, played_seconds, library_id,
         -- Stored once per distinct value (migration 0022): a page resolves its few dozen ids by primary key.
         (SELECT value FROM play_json_values WHERE id = h.transcoding_info_id) AS transcoding_info, (SELECT value FROM play_json_values WHERE id = h.stream_details_id) AS stream_details
       FROM playback_history h WHERE id IN (SELECT id FROM page)
       ORDER BY started_at DESC, id DESC;
