INSERT INTO media_users (server_id, id, name, is_administrator, primary_image_tag, last_activity_at, last_login_at, removed_at, updated_at)
       SELECT $1, u.id, u.name, u.is_administrator, u.primary_image_tag, u.last_activity_at, u.last_login_at, NULL, now()
       FROM json_to_recordset($2::json) AS u(id text, name text, is_administrator boolean, primary_image_tag text,
         last_activity_at timestamptz, last_login_at timestamptz)
       ON CONFLICT (server_id, id) DO UPDATE SET name = EXCLUDED.name, is_administrator = EXCLUDED.is_administrator,
         primary_image_tag = EXCLUDED.primary_image_tag,
         last_activity_at = GREATEST(media_users.last_activity_at, EXCLUDED.last_activity_at),
         last_login_at = GREATEST(media_users.last_login_at, EXCLUDED.last_login_at), removed_at = NULL, updated_at = now()
       RETURNING id;
