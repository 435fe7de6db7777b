SELECT max(date_created) AS at FROM items WHERE server_id = $1;
