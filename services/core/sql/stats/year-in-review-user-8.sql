WITH per_item AS MATERIALIZED (
       SELECT item_id, series_id, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND ($4::text IS NULL OR user_id = $4) GROUP BY item_id, series_id
     ), top_items AS (
       SELECT item_id AS id, plays, seconds FROM per_item WHERE series_id IS NULL
       ORDER BY seconds DESC, plays DESC, item_id LIMIT 5
     ), top_series AS (
       SELECT series_id AS id, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM per_item WHERE series_id IS NOT NULL
       GROUP BY series_id ORDER BY seconds DESC, plays DESC, series_id LIMIT 5
     ), ranked AS (
       SELECT 'item' AS kind, id, plays, seconds FROM top_items
       UNION ALL SELECT 'series', id, plays, seconds FROM top_series
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
