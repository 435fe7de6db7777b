SELECT COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS played_seconds FROM (
           SELECT plays, played_seconds FROM play_card_rollups
             WHERE server_id = $1 AND kind = 'library' AND span = 'month' AND key = $2 AND bucket >= $5
           UNION ALL
           SELECT plays, played_seconds FROM play_card_rollups
             WHERE server_id = $1 AND kind = 'library' AND span = 'day' AND key = $2 AND bucket >= $4 AND bucket < $5
           UNION ALL
           SELECT plays, played_seconds FROM play_rollups_by_library
             WHERE server_id = $1 AND library_id = $2 AND bucket >= $3 AND bucket < $4
           UNION ALL
           SELECT plays, played_seconds FROM play_rollups_by_library WHERE server_id = $1 AND library_id = '' AND $2 = '' AND bucket >= $3
         ) AS parts;
