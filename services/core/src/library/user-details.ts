import type { Database } from '../db/database.js';

/** POST /api/getUserDetails: the media-server user as the user page shows it. */
export async function userDetails(db: Database, serverId: string, userId: string) {
  const [row] = await db.query<{ id: string; name: string; primary_image_tag: string | null; is_administrator: boolean; tracked: boolean }>(
    `SELECT id, name, primary_image_tag, is_administrator, tracked FROM media_users WHERE server_id = $1 AND id = $2`,
    [serverId, userId],
  );
  if (!row) return undefined;
  return {
    Id: row.id,
    UserId: row.id,
    Name: row.name,
    UserName: row.name,
    PrimaryImageTag: row.primary_image_tag,
    IsAdministrator: row.is_administrator,
    Tracked: row.tracked,
  };
}
