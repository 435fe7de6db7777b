WITH incoming AS (
       SELECT r.*, o.ord, NULLIF((o.value -> 'stream_details')::jsonb, 'null'::jsonb) AS stream_details, NULLIF((o.value -> 'transcoding_info')::jsonb, 'null'::jsonb) AS transcoding_info
       FROM json_array_elements($1::json) WITH ORDINALITY AS o(value, ord),
         json_populate_record(NULL::playback_history, o.value) AS r
     ), json_values AS (
       SELECT DISTINCT ON (hash) hash, value FROM (
     SELECT md5((value)::text)::uuid AS hash, value FROM (SELECT stream_details AS value FROM incoming UNION ALL SELECT transcoding_info FROM incoming) AS v WHERE value IS NOT NULL
   ) AS hashed ORDER BY hash
     ), known_values AS (
       -- One lookup in the unique hash index per value (a join could scan the whole dictionary instead).
       SELECT * FROM (SELECT (SELECT d.id FROM play_json_values d WHERE d.hash = v.hash) AS id, v.hash FROM json_values v) AS k
       WHERE id IS NOT NULL
     ), new_values AS (
       INSERT INTO play_json_values AS d (hash, value)
       SELECT hash, value FROM json_values WHERE hash NOT IN (SELECT hash FROM known_values) ORDER BY hash
       ON CONFLICT (hash) DO UPDATE SET hash = EXCLUDED.hash
       RETURNING d.id, d.hash
     ), value_ids AS (
       SELECT id, hash FROM known_values UNION ALL SELECT id, hash FROM new_values
     ), previous AS (
       SELECT h.play_key, h.server_id, h.started_at, h.user_id, h.item_id, h.series_id, h.season_id, h.library_id, h.client, h.device_name, h.play_method, h.played_seconds FROM playback_history h
       JOIN incoming i ON h.server_id = i.server_id AND h.play_key = i.play_key
     ), written AS (
       INSERT INTO playback_history AS h (server_id, play_key, source, user_id, user_name, item_id, item_name, item_type, series_id, series_name,
         season_id, season_number, episode_number, library_id, client, device_name, device_id, application_version, remote_end_point,
         play_method, transcoding_info_id, stream_details_id, started_at, ended_at, played_seconds, paused_seconds, start_position_ticks,
         end_position_ticks, run_time_ticks)
       SELECT i.server_id, i.play_key, i.source, i.user_id, i.user_name, i.item_id, i.item_name, i.item_type, i.series_id, i.series_name,
         i.season_id, i.season_number, i.episode_number, i.library_id, i.client, i.device_name, i.device_id, i.application_version,
         i.remote_end_point, CASE WHEN s.kind <> 'jellyfin' AND i.play_method = 'DirectPlay' THEN 'DirectStream' ELSE i.play_method END, (SELECT id FROM value_ids WHERE hash = md5((i.transcoding_info)::text)::uuid), (SELECT id FROM value_ids WHERE hash = md5((i.stream_details)::text)::uuid), i.started_at, i.ended_at, i.played_seconds,
         i.paused_seconds, i.start_position_ticks, i.end_position_ticks, i.run_time_ticks
       FROM incoming i JOIN media_servers s ON s.id = i.server_id
       WHERE NOT (i.play_key = ANY($2::text[])) OR EXISTS (SELECT 1 FROM previous p WHERE p.play_key = i.play_key)
       ORDER BY i.ord
       ON CONFLICT (server_id, play_key) DO UPDATE SET ended_at = EXCLUDED.ended_at, played_seconds = EXCLUDED.played_seconds,
         paused_seconds = EXCLUDED.paused_seconds, end_position_ticks = EXCLUDED.end_position_ticks
       WHERE EXCLUDED.ended_at > h.ended_at
       RETURNING h.play_key, h.server_id, h.started_at, h.user_id, h.item_id, h.series_id, h.season_id, h.library_id, h.client, h.device_name, h.play_method, h.played_seconds, h.user_name, h.item_name, h.series_name, h.remote_end_point, (xmax = 0) AS inserted
     ), changes AS (
       SELECT server_id, started_at, user_id, item_id, series_id, season_id, library_id, client, device_name, play_method, played_seconds, 1 AS weight FROM written
       UNION ALL
       SELECT p.server_id, p.started_at, p.user_id, p.item_id, p.series_id, p.season_id, p.library_id, p.client, p.device_name, p.play_method, p.played_seconds, -1 FROM previous p JOIN written w ON w.play_key = p.play_key AND NOT w.inserted
     ), rolled_up AS (
       INSERT INTO play_rollups AS r (server_id, bucket, library_id, play_method, plays, played_seconds)
       SELECT * FROM (SELECT server_id, to_timestamp(floor(extract(epoch FROM started_at) / 900) * 900) AS bucket, COALESCE(library_id, '') AS library_id,
      play_method, sum(weight)::int AS plays, sum(weight * played_seconds)::bigint AS played_seconds
    FROM changes GROUP BY 1, 2, 3, 4 HAVING sum(weight) <> 0 OR sum(weight * played_seconds) <> 0) AS delta ORDER BY 3, 2, 4
       ON CONFLICT (server_id, library_id, bucket, play_method)
       DO UPDATE SET plays = r.plays + EXCLUDED.plays, played_seconds = r.played_seconds + EXCLUDED.played_seconds
       RETURNING 1
     ), totalled AS (
       INSERT INTO play_totals AS t (server_id, scope, key, plays, played_seconds)
       SELECT * FROM (SELECT server_id, scope, key, sum(w)::int AS plays, sum(w * played_seconds)::bigint AS played_seconds FROM (
      SELECT server_id, 'user' AS scope, user_id AS key, played_seconds, weight AS w FROM changes
      UNION ALL SELECT server_id, 'item', item_id, played_seconds, weight FROM changes
      UNION ALL SELECT server_id, 'item', series_id, played_seconds, weight FROM changes WHERE series_id IS NOT NULL AND series_id <> item_id
      UNION ALL SELECT server_id, 'item', season_id, played_seconds, weight FROM changes
        WHERE season_id IS NOT NULL AND season_id <> item_id AND season_id IS DISTINCT FROM series_id
      UNION ALL SELECT server_id, 'library', library_id, played_seconds, weight FROM changes WHERE library_id IS NOT NULL
      UNION ALL SELECT server_id, 'library_client', length(library_id)::text || ':' || library_id || ':' || client, played_seconds, weight FROM changes
        WHERE library_id IS NOT NULL AND client IS NOT NULL
      UNION ALL SELECT server_id, 'library_device', length(library_id)::text || ':' || library_id || ':' || device_name, played_seconds, weight FROM changes
        WHERE library_id IS NOT NULL AND device_name IS NOT NULL
    ) AS parts GROUP BY server_id, scope, key HAVING sum(w) <> 0 OR sum(w * played_seconds) <> 0) AS delta ORDER BY 2, 3
       ON CONFLICT (server_id, scope, key)
       DO UPDATE SET plays = t.plays + EXCLUDED.plays, played_seconds = t.played_seconds + EXCLUDED.played_seconds
       RETURNING 1
     ),
     -- An extended play changes none of the searched fields: only inserted rows add to the search's dictionary.
     search_delta AS (SELECT server_id, kind, key, value, sum(w)::int AS plays FROM (
      SELECT server_id, 'user' AS kind, user_id AS key, user_name AS value, weight AS w FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE true AND user_name <> ''
      UNION ALL SELECT server_id, 'series' AS kind, series_id AS key, series_name AS value, weight AS w FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE series_id IS NOT NULL AND series_name <> ''
      UNION ALL SELECT server_id, 'series_item' AS kind, item_id AS key, series_name AS value, weight AS w FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE series_id IS NULL AND series_name <> ''
      UNION ALL SELECT server_id, 'item' AS kind, item_id AS key, item_name AS value, weight AS w FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE true AND item_name <> ''
      UNION ALL SELECT server_id, 'client' AS kind, lower(client) AS key, client AS value, weight AS w FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE true AND client <> ''
      UNION ALL SELECT server_id, 'device' AS kind, lower(device_name) AS key, device_name AS value, weight AS w FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE true AND device_name <> ''
      UNION ALL SELECT server_id, 'address' AS kind, remote_end_point AS key, remote_end_point AS value, weight AS w FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE true AND remote_end_point <> ''
    ) AS terms GROUP BY server_id, kind, key, value HAVING sum(w) <> 0),
     search_keys AS (SELECT server_id, 'user' AS kind, user_id AS key, COALESCE(user_name, '') AS value FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE true
       UNION ALL SELECT server_id, 'item' AS kind, item_id AS key, COALESCE(item_name, '') AS value FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE true
       UNION ALL SELECT server_id, 'series' AS kind, series_id AS key, COALESCE(series_name, '') AS value FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE series_id IS NOT NULL
       UNION ALL SELECT server_id, 'series_item' AS kind, item_id AS key, COALESCE(series_name, '') AS value FROM (SELECT *, 1 AS weight FROM written WHERE inserted) AS s WHERE series_id IS NULL),
     search_single AS (
       SELECT server_id, kind, key, min(value) AS value FROM search_keys GROUP BY 1, 2, 3 HAVING count(DISTINCT value) = 1 AND min(value) <> ''
     ),
     search_rows AS MATERIALIZED (SELECT d.server_id, d.kind, d.value, d.key, d.plays,
           EXISTS (SELECT 1 FROM search_single s WHERE s.server_id = d.server_id AND s.kind = d.kind AND s.key = d.key AND s.value = d.value)
           AND (e.sure IS NOT NULL
             OR COALESCE((SELECT p.plays FROM play_totals p WHERE p.server_id = d.server_id AND p.scope = CASE d.kind WHEN 'user' THEN 'user' WHEN 'item' THEN 'item' WHEN 'series' THEN 'item' WHEN 'series_item' THEN 'item' END AND p.key = d.key), 0) = 0) AS sure,
           e.sure AS was_sure
         FROM search_delta d
         LEFT JOIN history_search_terms e ON e.server_id = d.server_id AND e.kind = d.kind AND e.value = d.value AND e.key = d.key
         UNION ALL
         SELECT DISTINCT t.server_id, t.kind, t.value, t.key, 0, false, true
         FROM search_keys k JOIN history_search_terms t ON t.server_id = k.server_id AND t.kind = k.kind AND t.key = k.key AND t.sure
         WHERE t.value <> k.value AND NOT EXISTS (
           SELECT 1 FROM search_delta d WHERE d.server_id = t.server_id AND d.kind = t.kind AND d.value = t.value AND d.key = t.key)),
     searched_terms AS (
       INSERT INTO history_search_terms AS t (server_id, kind, value, key, plays, sure)
       SELECT server_id, kind, value, key, plays, sure FROM search_rows ORDER BY 2, 3, 4
       ON CONFLICT (server_id, kind, value, key) DO UPDATE SET plays = t.plays + EXCLUDED.plays, sure = t.sure AND EXCLUDED.sure
       RETURNING 1
     ), searched_values AS (
       INSERT INTO history_search_values AS v (server_id, kind, value, plays)
       SELECT * FROM (SELECT server_id, kind, value, sum(plays)::int AS plays FROM search_delta AS t GROUP BY 1, 2, 3 HAVING sum(plays) <> 0) AS delta ORDER BY 2, 3
       ON CONFLICT (server_id, kind, value) DO UPDATE SET plays = v.plays + EXCLUDED.plays
       RETURNING 1
     ), searched_word_keys AS (
       INSERT INTO history_search_word_keys AS k (server_id, word, kind, key, sure)
       SELECT server_id, word, kind, key, bool_and(sure) FROM (
         SELECT r.server_id, w.word, r.kind, r.key, r.sure FROM search_rows AS r CROSS JOIN LATERAL (SELECT word FROM unnest(string_to_array(lower(r.value), ' ')) AS w (word) WHERE word <> '') AS w
         WHERE r.was_sure IS NULL OR (r.was_sure AND NOT r.sure)
       ) AS changed GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4
       ON CONFLICT (server_id, word, kind, key) DO UPDATE SET sure = false WHERE k.sure AND NOT EXCLUDED.sure
       RETURNING server_id, word
     ), searched_words AS (
       INSERT INTO history_search_words (server_id, word)
       SELECT DISTINCT server_id, word FROM searched_word_keys ORDER BY 2
       ON CONFLICT DO NOTHING
       RETURNING 1
     )
     SELECT play_key, user_id, item_id, series_id, season_id, library_id, played_seconds, inserted,
       (SELECT count(*) FROM rolled_up)::int AS rollup_rows, (SELECT count(*) FROM totalled)::int AS total_rows,
       (SELECT count(*) FROM searched_terms)::int AS term_rows, (SELECT count(*) FROM searched_values)::int AS value_rows
     FROM written;
