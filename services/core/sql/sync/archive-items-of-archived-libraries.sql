UPDATE items i SET archived = true, archived_at = now() FROM libraries l
       WHERE l.server_id = $1 AND l.archived AND i.server_id = l.server_id AND i.library_id = l.id AND NOT i.archived RETURNING 1;
