WITH counted AS (
       SELECT plays, played_seconds AS seconds FROM play_card_rollups
       WHERE server_id = $1 AND kind = 'method' AND span = 'month' AND bucket >= make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC') AND bucket < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC')
       UNION ALL SELECT w, w * played_seconds FROM (SELECT item_id, series_id, played_seconds, 1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC')
       UNION ALL SELECT item_id, series_id, played_seconds, -1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC') AND started_at < make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text)
       UNION ALL SELECT item_id, series_id, played_seconds, 1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC') AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
       UNION ALL SELECT item_id, series_id, played_seconds, -1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC')) AS edges
     )
     SELECT COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(seconds), 0)::bigint AS seconds FROM counted;
