WITH ranked AS (SELECT * FROM json_to_recordset($2::json) AS r(kind text, id text, plays int, seconds bigint))
     SELECT r.kind, r.id, r.plays, r.seconds,
       CASE WHEN r.kind = 'genre' THEN r.id ELSE COALESCE(i.name, named.name) END AS name,
       CASE WHEN r.kind = 'series' THEN 'Series' ELSE COALESCE(i.type, named.type) END AS type
     FROM ranked r
     LEFT JOIN items i ON r.kind <> 'genre' AND i.server_id = $1 AND i.id = r.id
     LEFT JOIN LATERAL (
       SELECT CASE WHEN r.kind = 'series' THEN h.series_name ELSE h.item_name END AS name, h.item_type AS type
       FROM playback_history h
       WHERE r.kind <> 'genre' AND i.id IS NULL AND h.server_id = $1 AND (CASE WHEN r.kind = 'series' THEN h.series_id ELSE h.item_id END) = r.id
       LIMIT 1
     ) AS named ON true
     ORDER BY r.kind, r.seconds DESC, r.plays DESC, name;
