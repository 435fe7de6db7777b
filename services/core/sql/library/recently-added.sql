WITH recent AS (SELECT * FROM items WHERE server_id = $1 AND NOT archived AND type IN ('Movie', 'Episode', 'Audio', 'Series')
    AND date_created IS NOT NULL  ORDER BY date_created DESC, id LIMIT 30)
     SELECT id, type, name, series_id, series_name, season_id, parent_index_number AS season_number, index_number AS episode_number,
       date_created, primary_image_hash AS image_hash, new_episodes
     FROM (SELECT *, 0 AS new_episodes FROM recent) AS picked
     WHERE NOT (type = 'Series' AND EXISTS (SELECT 1 FROM recent e WHERE e.type = 'Episode' AND e.series_id = picked.id))
     ORDER BY date_created DESC, id LIMIT 30;
