SELECT id, user_id, user_name, remote_end_point, series_id, series_name, season_number, episode_number, item_id, item_name,
  client, play_method, device_name, started_at, played_seconds, transcoding_info, stream_details, library_id FROM playback_history WHERE id = ANY($1::bigint[]) ORDER BY lower(user_name) ASC, id ASC;
