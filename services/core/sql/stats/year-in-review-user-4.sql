WITH cells AS MATERIALIZED (
       SELECT date_trunc('hour', started_at AT TIME ZONE $3::text) AS local, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND ($4::text IS NULL OR user_id = $4) GROUP BY 1
     ), days AS (
       SELECT local::date AS day, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM cells GROUP BY 1
     ), hours AS (
       SELECT extract(hour FROM local)::int AS hour, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM cells GROUP BY 1
     )
     SELECT 'total' AS kind, '' AS key, COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(seconds), 0)::bigint AS seconds FROM cells
     UNION ALL (SELECT 'day', to_char(day, 'YYYY-MM-DD'), plays, seconds FROM days ORDER BY seconds DESC, plays DESC, day LIMIT 1)
     UNION ALL (SELECT 'hour', hour::text, plays, seconds FROM hours ORDER BY seconds DESC, plays DESC, hour LIMIT 1);
