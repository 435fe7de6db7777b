WITH per_item AS (
       SELECT item_id, series_id, sum(w)::int AS plays, sum(w * played_seconds)::bigint AS seconds FROM (SELECT item_id, series_id, played_seconds, 1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC')
       UNION ALL SELECT item_id, series_id, played_seconds, -1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC') AND started_at < make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text)
       UNION ALL SELECT item_id, series_id, played_seconds, 1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC') AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
       UNION ALL SELECT item_id, series_id, played_seconds, -1 AS w FROM playback_history
       WHERE server_id = $1 AND ($4::text IS NULL OR user_id = $4) AND started_at >= make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC')) AS edges
       GROUP BY item_id, series_id
     ), tagged AS (
       SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.item_id
       UNION ALL
       SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.series_id
       WHERE NOT EXISTS (SELECT 1 FROM item_genres e WHERE e.server_id = $1 AND e.item_id = p.item_id)
     ), counted AS (
       SELECT genre, plays, played_seconds AS seconds FROM play_genre_rollups
       WHERE server_id = $1 AND user_id = COALESCE($4::text, '') AND month >= make_timestamptz($2::int, 1, 1, 0, 0, 0, 'UTC') AND month < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, 'UTC')
       UNION ALL SELECT genre, plays, seconds FROM tagged
     )
     SELECT genre, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM counted GROUP BY genre HAVING sum(plays) > 0
     ORDER BY 3 DESC, 2 DESC, 1 LIMIT 5;
