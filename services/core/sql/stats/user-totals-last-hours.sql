SELECT COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS played_seconds FROM (
       SELECT count(*) AS plays, sum(played_seconds) AS played_seconds FROM playback_history
            WHERE server_id = $1 AND started_at >= (now() - make_interval(hours => $2::int)) AND user_id = $3
     ) AS parts;
