WITH recent AS (SELECT * FROM items WHERE server_id = $1 AND NOT archived AND type IN ('Movie', 'Episode', 'Audio', 'Series')
    AND date_created IS NOT NULL AND library_id = $2 ORDER BY date_created DESC, id LIMIT 1000)
     SELECT id, type, name, series_id, series_name, season_id, parent_index_number AS season_number, index_number AS episode_number,
       date_created, primary_image_hash AS image_hash, new_episodes
     FROM (SELECT DISTINCT ON (group_key) *, count(*) FILTER (WHERE type = 'Episode') OVER (PARTITION BY group_key)::int AS new_episodes
       FROM (SELECT *, CASE WHEN type = 'Episode' AND season_id IS NOT NULL THEN season_id ELSE id END AS group_key FROM recent) AS keyed
       ORDER BY group_key, date_created DESC, id) AS picked
     WHERE NOT (type = 'Series' AND EXISTS (SELECT 1 FROM recent e WHERE e.type = 'Episode' AND e.series_id = picked.id))
     ORDER BY date_created DESC, id LIMIT 30;
