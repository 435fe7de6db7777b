/** Shared set-up of the sync tests: a migrated database, a media-server row, a quiet reporter. */
import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import type { TaskLogger } from '../tasks/task-types.js';
import { createTestDatabase, testLogger, type TestDatabase } from '../test-support/test-services.js';
import type { SyncReporter } from './sync-context.js';

export async function syncTestDatabase(): Promise<{ database: TestDatabase; db: Database }> {
  const database = await createTestDatabase();
  const db = openDatabase(database.url, testLogger);
  await migrateToLatest(db, testLogger);
  return { database, db };
}

/** A media_servers row pointing at a simulator (the key is kept in memory; the row's copy is not read here). */
export async function linkSimulator(
  db: Database,
  sim: { url: string; apiKey: string },
  kind: 'jellyfin' | 'emby',
  name = `sim-${kind}`,
): Promise<MediaServerLink> {
  const id = randomUUID();
  await db.query(`INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, $2, $3, $4, 'not-read-here')`, [
    id,
    name,
    kind,
    sim.url,
  ]);
  return {
    id,
    name,
    kind,
    url: sim.url,
    apiKey: sim.apiKey,
    apiKeyError: null,
    externalUrl: null,
    remoteServerId: null,
    version: null,
    isDefault: false,
    managedRef: null,
    suspended: false,
    settings: {},
    managedBy: 'ui',
  };
}

export interface RecordingReporter extends SyncReporter {
  lines: string[];
  fractions: number[];
}

export function recordingReporter(signal: AbortSignal = new AbortController().signal): RecordingReporter {
  const lines: string[] = [];
  const fractions: number[] = [];
  const line = async (message: string) => {
    lines.push(message);
  };
  const log: TaskLogger = { info: line, step: line, success: line, warn: line, error: line };
  return { signal, log, lines, fractions, progress: (f) => fractions.push(f) };
}
