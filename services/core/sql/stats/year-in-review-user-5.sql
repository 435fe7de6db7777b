WITH per_key AS MATERIALIZED (
       SELECT CASE WHEN series_id IS NULL THEN 'item' ELSE 'series' END AS kind, COALESCE(series_id, item_id) AS id, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND ($4::text IS NULL OR user_id = $4) GROUP BY series_id IS NULL, COALESCE(series_id, item_id)
     ), ranked AS (
       (SELECT * FROM per_key WHERE kind = 'item' ORDER BY seconds DESC, plays DESC, id LIMIT 5)
       UNION ALL (SELECT * FROM per_key WHERE kind = 'series' ORDER BY seconds DESC, plays DESC, id LIMIT 5)
     )
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
