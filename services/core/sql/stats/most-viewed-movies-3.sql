WITH ranked AS (
       SELECT * FROM json_to_recordset($2::json) AS r(id text, plays int, viewers int, played_seconds bigint)
     ), top AS (
       SELECT ranked.*, i.name, i.primary_image_hash AS image_hash, i.archived FROM ranked
       LEFT JOIN items i ON i.server_id = $1 AND i.id = ranked.id
     )
     SELECT top.*, COALESCE(top.name, last.name) AS name FROM top
     LEFT JOIN LATERAL (
       SELECT item_name AS name FROM playback_history
       WHERE server_id = $1 AND item_id = top.id ORDER BY started_at DESC LIMIT 1
     ) AS last ON top.name IS NULL
     ORDER BY plays DESC, played_seconds DESC, COALESCE(top.name, last.name), top.id LIMIT 5;
