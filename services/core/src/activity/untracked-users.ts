import type { Database } from '../db/database.js';

/**
 * Users whose plays are not recorded (media_users.tracked = false). The activity monitor owns this flag; sync
 * upserts users without touching it.
 */
export async function listUntrackedUsers(db: Database, serverId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM media_users WHERE server_id = $1 AND NOT tracked ORDER BY id', [serverId]);
  return rows.map((row) => row.id);
}

/**
 * Flips a user between tracked and untracked and answers the new untracked list. A user sync has not seen yet
 * gets a minimal row (name = id until sync fills it in), so the choice is kept.
 */
export async function toggleUntrackedUser(db: Database, serverId: string, userId: string): Promise<string[]> {
  await db.query(
    `INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, $2, $2, false)
     ON CONFLICT (server_id, id) DO UPDATE SET tracked = NOT media_users.tracked, updated_at = now()
     RETURNING tracked`,
    [serverId, userId],
  );
  return listUntrackedUsers(db, serverId);
}
