(SELECT key, plays, played_seconds AS seconds, true AS head FROM play_year_tops
        WHERE server_id = $1 AND year = $2 AND kind = $3 ORDER BY played_seconds DESC, plays DESC, key LIMIT 20)
       UNION ALL
       SELECT key, plays, played_seconds, false FROM play_year_tops
       WHERE server_id = $1 AND year = $2 AND kind = $3 AND key = ANY($4::text[]);
