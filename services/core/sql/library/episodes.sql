SELECT i.id, i.name, i.type, i.series_id, i.series_name, i.season_id, i.season_name, i.index_number, i.parent_index_number,
  i.parent_id, i.library_id, l.name AS library_name, i.file_name, i.path, i.run_time_ticks, i.size, i.archived,
  i.primary_image_hash AS image_hash, i.image_blur_hashes, i.image_tags, i.date_created,
  t.plays, t.played_seconds, NULL::int AS episodes FROM items i LEFT JOIN libraries l ON l.server_id = i.server_id AND l.id = i.library_id
  LEFT JOIN play_totals t ON t.server_id = i.server_id AND t.scope = 'item' AND t.key = i.id
     WHERE i.server_id = $1 AND i.type = 'Episode' AND (i.season_id = $2 OR i.series_id = $2)
     ORDER BY i.parent_index_number NULLS LAST, i.index_number NULLS LAST, lower(i.name), i.id;
