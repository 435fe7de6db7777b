UPDATE libraries l SET item_count = COALESCE(c.item_count, 0), season_count = COALESCE(c.season_count, 0),
         episode_count = COALESCE(c.episode_count, 0), file_count = COALESCE(f.file_count, 0), total_size = COALESCE(f.total_size, 0),
         updated_at = now()
       FROM libraries l2
       LEFT JOIN (
         SELECT library_id,
           count(*) FILTER (WHERE type NOT IN ('Season', 'Episode', 'MusicAlbum', 'MusicArtist'))::int AS item_count,
           count(*) FILTER (WHERE type = 'Season')::int AS season_count,
           count(*) FILTER (WHERE type = 'Episode')::int AS episode_count
         FROM items WHERE server_id = $1 AND NOT archived GROUP BY library_id
       ) c ON c.library_id = l2.id
       LEFT JOIN (
         SELECT i.library_id, count(*)::int AS file_count, COALESCE(sum(s.size), 0)::bigint AS total_size
         FROM media_sources s JOIN items i ON i.server_id = s.server_id AND i.id = s.item_id
         WHERE s.server_id = $1 AND NOT i.archived GROUP BY i.library_id
       ) f ON f.library_id = l2.id
       WHERE l.server_id = $1 AND l2.server_id = l.server_id AND l2.id = l.id RETURNING 1;
