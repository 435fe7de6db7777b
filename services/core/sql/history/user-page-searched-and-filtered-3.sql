SELECT kind, array_agg(DISTINCT key) AS keys FROM history_search_terms
     WHERE server_id = ANY($1::uuid[]) AND (kind, value) IN (SELECT * FROM unnest($2::text[], $3::text[])) AND plays > 0
     GROUP BY kind;
