SELECT COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS played_seconds FROM play_rollups_by_library
         WHERE server_id = $1 AND bucket >= $3 AND library_id = $2;
