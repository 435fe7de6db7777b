import type { Database } from '../db/database.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';

/** Which declared interval (a MediaStatsServer's spec.sync, in minutes) schedules which task. */
const DECLARED_KEY = { PartialSyncTask: 'recentIntervalMinutes', FullSyncTask: 'fullIntervalMinutes' } as const;
export type ServerSyncTask = keyof typeof DECLARED_KEY;
export const SERVER_SYNC_TASKS = Object.keys(DECLARED_KEY) as ServerSyncTask[];

/** The sync_cursors row that remembers when a sync task last started for one server. */
const startedCursor = (task: ServerSyncTask) => `task_started_at:${task}`;

/** The interval a server's link declares for the task (MediaStatsServer spec.sync), if a valid one. */
export function declaredInterval(link: Pick<MediaServerLink, 'settings'>, task: ServerSyncTask): number | undefined {
  const declared = (link.settings?.sync as Record<string, unknown> | null | undefined)?.[DECLARED_KEY[task]];
  return typeof declared === 'number' && Number.isFinite(declared) && declared > 0 ? declared : undefined;
}

/**
 * The servers a sync task is due for: each live, unsuspended server on its own interval, the one its
 * MediaStatsServer declares (longer or shorter than the installation's), else the installation's (Settings ›
 * Tasks). A server is due that interval after the task last started for it; a server never synced by this
 * schedule counts from the task's last run over every server, else from when the schedule started.
 */
export function dueServers(
  task: ServerSyncTask,
  installationMinutes: number,
  links: readonly Pick<MediaServerLink, 'id' | 'settings' | 'suspended'>[],
  serverStarts: ReadonlyMap<string, Date>,
  since: number,
  now: number,
): string[] {
  return links
    .filter((link) => !link.suspended)
    .filter((link) => {
      const minutes = declaredInterval(link, task) ?? installationMinutes;
      return now - (serverStarts.get(link.id)?.getTime() ?? since) >= minutes * 60_000;
    })
    .map((link) => link.id);
}

/** When the task last started for each server (the sync tasks note it per server as they reach it). */
export async function serverSyncStarts(db: Database, task: ServerSyncTask): Promise<Map<string, Date>> {
  const rows = await db.query<{ server_id: string; value: string }>('SELECT server_id, value FROM sync_cursors WHERE name = $1', [
    startedCursor(task),
  ]);
  return new Map(rows.map((row) => [row.server_id, new Date(row.value)]));
}

export async function recordServerSyncStart(db: Database, serverId: string, task: ServerSyncTask, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO sync_cursors (server_id, name, value, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (server_id, name) DO UPDATE SET value = EXCLUDED.value, updated_at = now() RETURNING 1`,
    [serverId, startedCursor(task), at.toISOString()],
  );
}
