WITH plays AS (
       SELECT started_at AT TIME ZONE $3::text AS local, played_seconds FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND ($4::text IS NULL OR user_id = $4)
     ), days AS (
       SELECT to_char(local, 'YYYY-MM-DD') AS key, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds FROM plays GROUP BY 1
     ), hours AS (
       SELECT extract(hour FROM local)::int::text AS key, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds FROM plays GROUP BY 1
     )
     SELECT 'total' AS kind, '' AS key, count(*)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS seconds FROM plays
     UNION ALL (SELECT 'day', key, plays, seconds FROM days ORDER BY seconds DESC, plays DESC, key LIMIT 1)
     UNION ALL (SELECT 'hour', key, plays, seconds FROM hours ORDER BY seconds DESC, plays DESC, key::int LIMIT 1);
