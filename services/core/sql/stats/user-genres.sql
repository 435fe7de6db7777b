WITH per_item AS (
       SELECT item_id, series_id, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM playback_history WHERE server_id = $1 AND user_id = $2 GROUP BY item_id, series_id
     ), tagged AS (
       SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.item_id
       UNION ALL
       SELECT p.plays, p.seconds, g.genre FROM per_item p JOIN item_genres g ON g.server_id = $1 AND g.item_id = p.series_id
       WHERE NOT EXISTS (SELECT 1 FROM item_genres e WHERE e.server_id = $1 AND e.item_id = p.item_id)
     )
     SELECT genre, sum(plays)::int AS plays, sum(seconds)::bigint AS played_seconds FROM tagged GROUP BY genre;
