SELECT CASE WHEN count(*) > 13 THEN ARRAY['all'] ELSE array_agg(m::text) END AS lists,
       COALESCE((SELECT min(started_at) FROM playback_history WHERE server_id = $1) >= ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text), true) AS everything,
       (SELECT COALESCE(sum(plays), 0) FROM play_card_rollups WHERE server_id = $1 AND kind = 'method' AND span = 'month'
         AND bucket >= date_trunc('month', ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS months_plays,
       NULL::int AS days_plays
     FROM generate_series(
       date_trunc('month', ((date_trunc('day', now() AT TIME ZONE $2::text) - make_interval(days => $3::int)) AT TIME ZONE $2::text) AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
     WHERE $1::uuid IS NOT NULL;
