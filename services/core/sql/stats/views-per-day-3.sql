SELECT to_char(d, 'YYYY-MM-DD') AS key
           FROM generate_series((((date_trunc('day', now() AT TIME ZONE $1::text) - make_interval(days => $2::int)) AT TIME ZONE $1::text) AT TIME ZONE $1::text)::date,
             (now() AT TIME ZONE $1::text)::date, interval '1 day') AS d;
