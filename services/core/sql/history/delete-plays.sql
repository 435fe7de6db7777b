WITH deleted AS (
       DELETE FROM playback_history h WHERE h.server_id = $1 AND (h.id = ANY($2::bigint[]))
       RETURNING server_id, started_at, user_id, item_id, series_id, season_id, library_id, play_method, played_seconds
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
    ) AS parts GROUP BY server_id, scope, key HAVING sum(w) <> 0 OR sum(w * played_seconds) <> 0) AS d
       WHERE t.server_id = d.server_id AND t.scope = d.scope AND t.key = d.key
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM deleted)::int AS deleted, (SELECT count(*) FROM rolled_up)::int AS rollup_rows,
       (SELECT count(*) FROM totalled)::int AS total_rows,
       (SELECT json_agg(json_build_object('userId', user_id, 'itemId', item_id, 'seriesId', series_id, 'seasonId', season_id,
          'libraryId', library_id)) FROM (SELECT DISTINCT user_id, item_id, series_id, season_id, library_id FROM deleted) AS ids) AS plays;
