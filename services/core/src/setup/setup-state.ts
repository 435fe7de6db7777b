import type { Database } from '../db/database.js';

/** SPEC.md §4: 0 = no administrator yet, 1 = administrator but no media server linked, 2 = ready. */
export type SetupState = 0 | 1 | 2;

export async function readSetupState(db: Database): Promise<SetupState> {
  const [row] = await db.query<{ admins: number; servers: number }>(
    `SELECT (SELECT count(*) FROM admin_accounts)::int AS admins, (SELECT count(*) FROM media_servers)::int AS servers`,
  );
  if (!row || row.admins === 0) return 0;
  return row.servers === 0 ? 1 : 2;
}
