(SELECT key, plays, played_seconds AS seconds, true AS head FROM play_year_tops
        WHERE server_id = $1 AND user_id = $2 AND year = $3 AND kind = $4 ORDER BY played_seconds DESC, plays DESC, key LIMIT 20)
       UNION ALL
       SELECT key, plays, played_seconds, false FROM play_year_tops
       WHERE server_id = $1 AND user_id = $2 AND year = $3 AND kind = $4 AND key = ANY($5::text[]);
