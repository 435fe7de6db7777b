WITH newest AS (
       SELECT id, started_at, item_id, series_id, season_number, COALESCE('s:' || series_id, 'i:' || item_id) AS show
       FROM playback_history WHERE server_id = $1 AND user_id = $2 AND library_id = ANY($3::text[])
       ORDER BY started_at DESC, id DESC LIMIT $4
     ), marked AS (
       SELECT *, CASE WHEN show IS DISTINCT FROM lag(show) OVER newest_first THEN 1 ELSE 0 END AS starts_run,
         count(*) OVER () AS scanned
       FROM newest WINDOW newest_first AS (ORDER BY started_at DESC, id DESC)
     ), numbered AS (
       SELECT *, sum(starts_run) OVER (ORDER BY started_at DESC, id DESC) AS run, sum(starts_run) OVER () AS oldest_run FROM marked
     ), runs AS (
       -- Only the entries shown are aggregated (runs are numbered from the newest), not every run read.
       SELECT run, min(item_id) AS item_id, min(series_id) AS series_id, count(DISTINCT item_id)::int AS episodes,
         min(season_number) AS first_season, max(season_number) AS last_season, min(started_at) AS first_at,
         max(started_at) AS last_at, (array_agg(id ORDER BY started_at, id))[1] AS first_play, max(scanned)::int AS scanned,
         max(oldest_run) AS oldest_run
       FROM numbered WHERE run <= $5 GROUP BY run
     )
     SELECT runs.*, h.item_name, h.item_type, h.series_name
     FROM runs JOIN playback_history h ON h.id = runs.first_play
     ORDER BY runs.run;
