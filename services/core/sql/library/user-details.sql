SELECT id, name, primary_image_tag, is_administrator, tracked FROM media_users WHERE server_id = $1 AND id = $2;
