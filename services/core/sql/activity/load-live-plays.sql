SELECT session_id, play_key, user_id, item_id, state, started_at, last_seen_at, last_report_at, last_position_ticks,
       start_position_ticks, is_paused, played_seconds, paused_seconds, ended_at, completed, excluded, segments, recorded_seconds,
       snapshot
     FROM live_sessions WHERE server_id = $1 ORDER BY started_at, play_key;
