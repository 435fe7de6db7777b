WITH recent AS (SELECT * FROM items WHERE server_id = $1 AND NOT archived AND type IN ('Movie', 'Episode', 'Audio', 'Series')
    AND date_created IS NOT NULL AND library_id = $2 ORDER BY date_created DESC, id LIMIT 1000), grouped AS (
           SELECT CASE WHEN type = 'Episode' AND season_id IS NOT NULL THEN season_id ELSE id END AS group_id,
             count(*) FILTER (WHERE type = 'Episode')::int AS new_episodes, max(date_created) AS date_created
           FROM recent GROUP BY 1
         )
         SELECT g.group_id AS id, CASE WHEN g.new_episodes > 0 AND s.id IS NOT NULL THEN 'Season' ELSE COALESCE(s.type, i.type) END AS type,
           COALESCE(s.name, i.name) AS name, COALESCE(s.series_id, i.series_id) AS series_id,
           COALESCE(s.series_name, i.series_name) AS series_name, CASE WHEN s.id IS NOT NULL THEN s.id ELSE i.season_id END AS season_id,
           COALESCE(s.index_number, i.parent_index_number) AS season_number, CASE WHEN s.id IS NULL THEN i.index_number END AS episode_number,
           g.date_created, COALESCE(s.primary_image_hash, s.primary_image_tag, i.primary_image_hash, i.primary_image_tag) AS image_hash,
           g.new_episodes
         FROM grouped g
         LEFT JOIN items s ON s.server_id = $1 AND s.id = g.group_id AND s.type = 'Season'
         LEFT JOIN items i ON i.server_id = $1 AND i.id = g.group_id
         ORDER BY g.date_created DESC, g.group_id LIMIT 30;
