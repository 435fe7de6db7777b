SELECT CASE WHEN count(*) > 13 THEN ARRAY['all'] ELSE array_agg(m::text) END AS lists,
       NOT EXISTS (SELECT 1 FROM playback_history WHERE server_id = $1 AND started_at < $2::timestamptz) AS everything
     FROM generate_series(
       date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC'), date_trunc('month', ($3::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC'), interval '1 month') AS m
     WHERE $1::uuid IS NOT NULL;
