SELECT m.list, l.key, l.value FROM unnest($3::text[]) AS m(list)
         CROSS JOIN LATERAL (
           SELECT key, played_seconds AS value FROM play_card_rollups
           WHERE server_id = $1 AND kind = $2 AND span = 'month'
             AND bucket = (m.list::timestamp AT TIME ZONE 'UTC')
           ORDER BY played_seconds DESC, key LIMIT 25
         ) AS l;
