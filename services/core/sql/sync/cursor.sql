SELECT value FROM sync_cursors WHERE server_id = $1 AND name = $2;
