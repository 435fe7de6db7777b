WITH deleted AS (
       DELETE FROM playback_history h WHERE h.server_id = $1 AND (h.id = ANY($2::bigint[]))
       RETURNING server_id, started_at, user_id, item_id, series_id, season_id, library_id, client, play_method, played_seconds,
         user_name, item_name, series_name, device_name, remote_end_point
     ), rolled_up AS (
       UPDATE play_rollups r SET plays = r.plays - d.plays, played_seconds = r.played_seconds - d.played_seconds
       FROM (SELECT server_id, to_timestamp(floor(extract(epoch FROM started_at) / 900) * 900) AS bucket, COALESCE(library_id, '') AS library_id,
      play_method, sum(1)::int AS plays, sum(1 * played_seconds)::bigint AS played_seconds
    FROM deleted GROUP BY 1, 2, 3, 4 HAVING sum(1) <> 0 OR sum(1 * played_seconds) <> 0) AS d
       WHERE r.server_id = d.server_id AND r.bucket = d.bucket AND r.library_id = d.library_id AND r.play_method = d.play_method
       RETURNING 1
     ), totalled AS (
       UPDATE play_totals t SET plays = t.plays - d.plays, played_seconds = t.played_seconds - d.played_seconds
       FROM (SELECT server_id, scope, key, sum(w)::int AS plays, sum(w * played_seconds)::bigint AS played_seconds FROM (
      SELECT server_id, 'user' AS scope, user_id AS key, played_seconds, 1 AS w FROM deleted
      UNION ALL SELECT server_id, 'item', item_id, played_seconds, 1 FROM deleted
      UNION ALL SELECT server_id, 'item', series_id, played_seconds, 1 FROM deleted WHERE series_id IS NOT NULL AND series_id <> item_id
      UNION ALL SELECT server_id, 'item', season_id, played_seconds, 1 FROM deleted
        WHERE season_id IS NOT NULL AND season_id <> item_id AND season_id IS DISTINCT FROM series_id
      UNION ALL SELECT server_id, 'library', library_id, played_seconds, 1 FROM deleted WHERE library_id IS NOT NULL
      UNION ALL SELECT server_id, 'library_client', length(library_id)::text || ':' || library_id || ':' || client, played_seconds, 1 FROM deleted
        WHERE library_id IS NOT NULL AND client IS NOT NULL
      UNION ALL SELECT server_id, 'library_device', length(library_id)::text || ':' || library_id || ':' || device_name, played_seconds, 1 FROM deleted
        WHERE library_id IS NOT NULL AND device_name IS NOT NULL
    ) AS parts GROUP BY server_id, scope, key HAVING sum(w) <> 0 OR sum(w * played_seconds) <> 0) AS d
       WHERE t.server_id = d.server_id AND t.scope = d.scope AND t.key = d.key
       RETURNING 1
     ), search_delta AS (SELECT server_id, kind, key, value, sum(w)::int AS plays FROM (
      SELECT server_id, 'user' AS kind, user_id AS key, user_name AS value, weight AS w FROM (SELECT *, -1 AS weight FROM deleted) AS s WHERE true AND user_name <> ''
      UNION ALL SELECT server_id, 'series' AS kind, series_id AS key, series_name AS value, weight AS w FROM (SELECT *, -1 AS weight FROM deleted) AS s WHERE series_id IS NOT NULL AND series_name <> ''
      UNION ALL SELECT server_id, 'series_item' AS kind, item_id AS key, series_name AS value, weight AS w FROM (SELECT *, -1 AS weight FROM deleted) AS s WHERE series_id IS NULL AND series_name <> ''
      UNION ALL SELECT server_id, 'item' AS kind, item_id AS key, item_name AS value, weight AS w FROM (SELECT *, -1 AS weight FROM deleted) AS s WHERE true AND item_name <> ''
      UNION ALL SELECT server_id, 'client' AS kind, lower(client) AS key, client AS value, weight AS w FROM (SELECT *, -1 AS weight FROM deleted) AS s WHERE true AND client <> ''
      UNION ALL SELECT server_id, 'device' AS kind, lower(device_name) AS key, device_name AS value, weight AS w FROM (SELECT *, -1 AS weight FROM deleted) AS s WHERE true AND device_name <> ''
      UNION ALL SELECT server_id, 'address' AS kind, remote_end_point AS key, remote_end_point AS value, weight AS w FROM (SELECT *, -1 AS weight FROM deleted) AS s WHERE true AND remote_end_point <> ''
    ) AS terms GROUP BY server_id, kind, key, value HAVING sum(w) <> 0),
     search_rows AS (SELECT server_id, kind, value, key, plays, false AS sure FROM search_delta),
     searched_terms AS (
       INSERT INTO history_search_terms AS t (server_id, kind, value, key, plays, sure)
       SELECT server_id, kind, value, key, plays, sure FROM search_rows ORDER BY 2, 3, 4
       ON CONFLICT (server_id, kind, value, key) DO UPDATE SET plays = t.plays + EXCLUDED.plays
       RETURNING 1
     ), searched_values AS (
       INSERT INTO history_search_values AS v (server_id, kind, value, plays)
       SELECT * FROM (SELECT server_id, kind, value, sum(plays)::int AS plays FROM search_delta AS t GROUP BY 1, 2, 3 HAVING sum(plays) <> 0) AS delta ORDER BY 2, 3
       ON CONFLICT (server_id, kind, value) DO UPDATE SET plays = v.plays + EXCLUDED.plays
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM deleted)::int AS deleted, (SELECT count(*) FROM rolled_up)::int AS rollup_rows,
       (SELECT count(*) FROM totalled)::int AS total_rows, (SELECT count(*) FROM searched_terms)::int AS term_rows,
       (SELECT count(*) FROM searched_values)::int AS value_rows,
       (SELECT json_agg(json_build_object('userId', user_id, 'itemId', item_id, 'seriesId', series_id, 'seasonId', season_id,
          'libraryId', library_id)) FROM (SELECT DISTINCT user_id, item_id, series_id, season_id, library_id FROM deleted) AS ids) AS plays;
