WITH page AS (
      SELECT id FROM playback_history WHERE server_id = $1 AND user_id = $2 AND play_method = ANY($3::text[]) AND library_id = ANY($4::text[]) AND started_at >= $5 AND started_at <= $6 AND CASE WHEN lower(coalesce(user_name, '') || ' ' || coalesce(series_name, '') || ' ' || item_name || ' ' || coalesce(client, '')
        || ' ' || coalesce(device_name, '') || ' ' || coalesce(remote_end_point, '')) LIKE lower($7) THEN true ELSE false END ORDER BY lower(user_name) ASC, id ASC LIMIT 25 OFFSET 0
    )
       SELECT id, user_id, user_name, remote_end_point, series_id, series_name, season_number, episode_number, item_id, item_name,
         client, play_method, device_name, started_at, played_seconds, library_id,
         -- Stored once per distinct value (migration 0022): a page resolves its few dozen ids by primary key.
         (SELECT value FROM play_json_values WHERE id = h.transcoding_info_id) AS transcoding_info, (SELECT value FROM play_json_values WHERE id = h.stream_details_id) AS stream_details
       FROM playback_history h WHERE id IN (SELECT id FROM page)
       ORDER BY lower(user_name) ASC, id ASC;
