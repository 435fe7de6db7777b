import pg from 'pg';
import { AppError } from '../errors/app-error.js';

/** Any fixed number unique to "a restore or import is running"; one at a time in the whole cluster. */
const RESTORE_LOCK_KEY = 7_246_118_015;

/**
 * A connection that holds the cluster-wide restore lock for as long as it is open. The lock is a session
 * advisory lock, so a process killed mid-restore frees it with its connection and the restore can run again.
 */
export async function openRestoreSession(url: string): Promise<pg.Client> {
  const client = restoreClient(url);
  await client.connect();
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [RESTORE_LOCK_KEY]);
  if (!rows[0]!.locked) {
    await client.end();
    throw AppError.conflict('A restore is already running; wait for it to finish');
  }
  return client;
}

/** A further connection of the restore (index builds in parallel), under the same application name. */
export async function openRestoreWorker(url: string): Promise<pg.Client> {
  const client = restoreClient(url);
  await client.connect();
  return client;
}

function restoreClient(url: string): pg.Client {
  const client = new pg.Client({ connectionString: url, application_name: 'reelstat-restore' });
  // A connection lost mid-restore fails the query in progress; without a listener it would also crash the process.
  client.on('error', () => undefined);
  return client;
}
