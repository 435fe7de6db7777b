SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT play_method AS key, plays, played_seconds FROM play_rollups_by_library_method_month
        WHERE server_id = $1 AND bucket >= (date_trunc('month', to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900)) / 86400) * 86400) AT TIME ZONE 'UTC') + CASE WHEN to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900)) / 86400) * 86400) = date_trunc('month', to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900)) / 86400) * 86400) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
          THEN interval '0' ELSE interval '1 month' END) AT TIME ZONE 'UTC' AND library_id = $3
      UNION ALL
      SELECT play_method AS key, plays, played_seconds FROM play_rollups_daily
        WHERE server_id = $1 AND bucket >= to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900)) / 86400) * 86400) AND bucket < (date_trunc('month', to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900)) / 86400) * 86400) AT TIME ZONE 'UTC') + CASE WHEN to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900)) / 86400) * 86400) = date_trunc('month', to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900)) / 86400) * 86400) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
          THEN interval '0' ELSE interval '1 month' END) AT TIME ZONE 'UTC' AND library_id = $3
      UNION ALL
      SELECT play_method AS key, plays, played_seconds FROM play_rollups
        WHERE server_id = $1 AND bucket >= to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900) AND bucket < to_timestamp(ceil(extract(epoch FROM to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900)) / 86400) * 86400) AND library_id = $3
      UNION ALL
      SELECT play_method AS key, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= (now() - make_interval(hours => $2::int)) AND started_at < to_timestamp(ceil(extract(epoch FROM (now() - make_interval(hours => $2::int))) / 900) * 900) AND library_id = $3
    ) AS parts GROUP BY key HAVING sum(plays) > 0;
