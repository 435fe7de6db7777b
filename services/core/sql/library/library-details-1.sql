SELECT l.id, l.name, l.collection_type, l.tracked, l.archived, l.primary_image_hash AS image_hash,
       COALESCE(c.entries, 0)::int AS entries, COALESCE(c.seasons, 0)::int AS seasons, COALESCE(c.episodes, 0)::int AS episodes,
       COALESCE(c.files, 0)::int AS files, COALESCE(c.size, 0)::bigint AS size, COALESCE(c.runtime_ticks, 0)::bigint AS runtime_ticks
     FROM libraries l
     LEFT JOIN (
       SELECT library_id, count(*) FILTER (WHERE type NOT IN ('Season', 'Episode', 'MusicAlbum', 'MusicArtist', 'Folder', 'CollectionFolder', 'BoxSet', 'Playlist')) AS entries, count(*) FILTER (WHERE type = 'Season') AS seasons,
         count(*) FILTER (WHERE type = 'Episode') AS episodes, count(*) FILTER (WHERE path IS NOT NULL AND size IS NOT NULL) AS files,
         sum(size) AS size, sum(run_time_ticks) FILTER (WHERE type NOT IN ('Series', 'Season', 'MusicAlbum', 'MusicArtist')) AS runtime_ticks
       FROM items WHERE server_id = $1 AND NOT archived AND library_id = $2
       GROUP BY library_id
     ) AS c ON c.library_id = l.id
     WHERE l.server_id = $1 AND l.id = $2
     ORDER BY lower(l.name), l.id;
