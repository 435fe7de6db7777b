SELECT plays AS count FROM play_totals WHERE server_id = $1 AND scope = $2 AND key = $3;
