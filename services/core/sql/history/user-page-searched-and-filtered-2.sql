WITH hits AS MATERIALIZED (
       SELECT id, started_at FROM playback_history WHERE server_id = $1 AND user_id = $2 AND play_method = ANY($3::text[]) AND library_id = ANY($4::text[]) AND started_at >= $5 AND started_at <= $6 AND lower(coalesce(user_name, '') || ' ' || coalesce(series_name, '') || ' ' || item_name || ' ' || coalesce(client, '')
        || ' ' || coalesce(device_name, '') || ' ' || coalesce(remote_end_point, '')) LIKE $7 LIMIT 10001
     ), counted AS (SELECT count(*)::int AS total FROM hits)
     SELECT total, CASE WHEN total <= 10000 THEN ARRAY(SELECT id FROM playback_history WHERE id = ANY(ARRAY(SELECT id FROM hits)) ORDER BY lower(user_name) ASC, id ASC LIMIT 25 OFFSET 0) END AS page FROM counted;
