SELECT g.genre, sum(t.plays)::int AS plays, sum(t.played_seconds)::bigint AS played_seconds
     FROM items i
     JOIN play_totals t ON t.server_id = $1 AND t.scope = 'item' AND t.key = i.id AND t.plays > 0
     JOIN item_genres g ON g.server_id = $1 AND g.item_id = i.id
     WHERE i.server_id = $1 AND i.library_id = $2 AND i.type NOT IN ('Episode', 'Season')
     GROUP BY g.genre;
