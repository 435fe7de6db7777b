WITH matched AS (
         SELECT 1 AS ord, * FROM (SELECT server_id, kind, value, plays FROM history_search_values v
         WHERE v.server_id = ANY($1::uuid[]) AND v.kind = ANY('{user,client,device,address}'::text[]) AND lower((v.value || '')) LIKE lower($2) AND v.plays > 0
         LIMIT 1001) AS v1
         UNION ALL SELECT 2 AS ord, * FROM (SELECT server_id, kind, value, plays FROM history_search_values v
         WHERE v.server_id = ANY($1::uuid[]) AND v.kind <> ALL('{user,client,device,address}'::text[]) AND lower(v.value) LIKE lower($2) AND v.plays > 0
         LIMIT 1001) AS v2
       )
       SELECT m.ord::int AS ord, m.kind, count(*)::int AS terms, sum(m.plays)::int AS plays,
         CASE WHEN sum(m.plays) <= 20000 THEN array_agg(m.value) END AS values
       FROM matched m GROUP BY m.ord, m.kind
       UNION ALL
       -- Every play has one user value: their sum is the number of plays.
       SELECT 0, 'user', 0, COALESCE(sum(plays), 0)::int, NULL FROM history_search_values WHERE server_id = ANY($1::uuid[]) AND kind = 'user';
