SELECT id, type, name, series_id, series_name, season_id, parent_index_number AS season_number, index_number AS episode_number,
           date_created, COALESCE(primary_image_hash, primary_image_tag) AS image_hash, 0 AS new_episodes
         FROM (SELECT * FROM items WHERE server_id = $1 AND NOT archived AND type IN ('Movie', 'Episode', 'Audio', 'Series')
    AND date_created IS NOT NULL  ORDER BY date_created DESC, id LIMIT 30) AS recent ORDER BY date_created DESC, id;
