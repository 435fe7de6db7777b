WITH plays AS (
       SELECT user_id, started_at, played_seconds, started_at + make_interval(secs => played_seconds) AS ended_at
       FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2::int, 1, 1, 0, 0, 0, $3::text) AND started_at < make_timestamptz($2::int + 1, 1, 1, 0, 0, 0, $3::text) AND ($4::text IS NULL OR user_id = $4)
     ), marked AS (
       SELECT *, CASE WHEN started_at - lag(ended_at) OVER (PARTITION BY user_id ORDER BY started_at)
           <= make_interval(mins => 30) THEN 0 ELSE 1 END AS starts_run
       FROM plays
     ), runs AS (
       SELECT *, sum(starts_run) OVER (PARTITION BY user_id ORDER BY started_at ROWS UNBOUNDED PRECEDING) AS run FROM marked
     )
     SELECT user_id, min(started_at) AS started_at, max(ended_at) AS ended_at, count(*)::int AS plays, sum(played_seconds)::bigint AS seconds
     FROM runs GROUP BY user_id, run HAVING count(*) > 1
     ORDER BY seconds DESC, plays DESC, started_at LIMIT 1;
