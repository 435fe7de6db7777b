SELECT make_timestamptz($1::int, 1, 1, 0, 0, 0, $2::text) AS start, make_timestamptz($1::int + 1, 1, 1, 0, 0, 0, $2::text) AS end;
