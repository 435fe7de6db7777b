WITH per_item AS MATERIALIZED (
       SELECT item_id, series_id, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND ($4::text IS NULL OR user_id = $4) GROUP BY item_id, series_id
     ), tagged AS (
       SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.item_id
       UNION ALL
       SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.series_id
       WHERE NOT EXISTS (SELECT 1 FROM item_genres e WHERE e.server_id = $1 AND e.item_id = p.item_id)
     )
     SELECT genre, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM tagged GROUP BY genre
     ORDER BY 3 DESC, 2 DESC, 1 LIMIT 5;
