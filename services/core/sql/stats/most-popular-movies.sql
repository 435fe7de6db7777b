WITH ranked AS (
       SELECT item_id AS id, count(*)::int AS plays, count(DISTINCT user_id)::int AS viewers, sum(played_seconds)::bigint AS played_seconds
       FROM playback_history
       WHERE server_id = $1 AND started_at >= ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AND item_type = 'Movie'
       GROUP BY 1
     ), top AS (
       SELECT ranked.*, i.name, i.primary_image_hash AS image_hash, i.archived FROM ranked
       LEFT JOIN items i ON i.server_id = $1 AND i.id = ranked.id
       ORDER BY viewers DESC, plays DESC, played_seconds DESC, i.name NULLS LAST, ranked.id LIMIT 20
     )
     SELECT top.*, COALESCE(top.name, last.name) AS name FROM top
     LEFT JOIN LATERAL (
       SELECT item_name AS name FROM playback_history
       WHERE server_id = $1 AND item_id = top.id ORDER BY started_at DESC LIMIT 1
     ) AS last ON top.name IS NULL
     ORDER BY viewers DESC, plays DESC, played_seconds DESC, COALESCE(top.name, last.name), top.id;
