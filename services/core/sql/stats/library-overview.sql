SELECT l.id, l.name, l.collection_type, l.tracked, l.archived, l.primary_image_hash AS image_hash,
       COALESCE(c.entries, 0)::int AS entries, COALESCE(c.seasons, 0)::int AS seasons, COALESCE(c.episodes, 0)::int AS episodes,
       COALESCE(c.files, 0)::int AS files, COALESCE(c.size, 0)::bigint AS size, COALESCE(c.runtime_ticks, 0)::bigint AS runtime_ticks
     FROM libraries l
     LEFT JOIN library_item_counts c ON c.server_id = l.server_id AND c.library_id = l.id
     WHERE l.server_id = $1
     ORDER BY lower(l.name), l.id;
