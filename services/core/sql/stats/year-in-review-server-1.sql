WITH quarters AS (
       SELECT bucket AT TIME ZONE $3::text AS local, sum(plays)::int AS plays, sum(played_seconds)::bigint AS seconds
       FROM play_rollups_by_library WHERE server_id = $1 AND bucket >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND bucket < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text)
       GROUP BY bucket
     ), days AS (
       SELECT to_char(local, 'YYYY-MM-DD') AS key, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM quarters GROUP BY 1
     ), hours AS (
       SELECT extract(hour FROM local)::int::text AS key, sum(plays)::int AS plays, sum(seconds)::bigint AS seconds FROM quarters GROUP BY 1
     )
     SELECT 'total' AS kind, '' AS key, COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(seconds), 0)::bigint AS seconds FROM quarters
     UNION ALL (SELECT 'day', key, plays, seconds FROM days ORDER BY seconds DESC, plays DESC, key LIMIT 1)
     UNION ALL (SELECT 'hour', key, plays, seconds FROM hours ORDER BY seconds DESC, plays DESC, key::int LIMIT 1);
