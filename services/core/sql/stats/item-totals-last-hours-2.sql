SELECT COALESCE(sum(plays), 0)::int AS plays, COALESCE(sum(played_seconds), 0)::bigint AS played_seconds FROM (
       SELECT count(*) AS plays, sum(played_seconds) AS played_seconds FROM playback_history
            WHERE server_id = $1 AND started_at >= (now() - make_interval(hours => $2::int)) AND item_id = $3 UNION ALL SELECT count(*) AS plays, sum(played_seconds) AS played_seconds FROM playback_history
            WHERE server_id = $1 AND started_at >= (now() - make_interval(hours => $2::int)) AND series_id = $3 AND item_id <> $3 UNION ALL SELECT count(*) AS plays, sum(played_seconds) AS played_seconds FROM playback_history
            WHERE server_id = $1 AND started_at >= (now() - make_interval(hours => $2::int)) AND season_id = $3 AND item_id <> $3 AND series_id IS DISTINCT FROM $3
     ) AS parts;
