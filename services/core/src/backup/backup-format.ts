import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { backupFileName } from '@reelstat/contract';

/**
 * A Reelstat backup is one JSON document, written one line per row so it can be streamed both ways:
 *
 *   {"format":"reelstat-backup","formatVersion":1,"manifest":{…},"tables":[
 *   {"table":"media_servers","columns":["id",…],"rows":[
 *   ["…",…],
 *   …
 *   ]},
 *   …
 *   ]}
 *
 * The manifest comes first, so a restore knows the schema version and the row counts before reading a row.
 */
export const BACKUP_FORMAT = 'reelstat-backup';
export const BACKUP_FORMAT_VERSION = 1;

export const backupManifest = z.object({
  reelstatVersion: z.string(),
  /** The last schema migration of the database the backup was taken from. */
  schemaMigration: z.string(),
  createdAt: z.string(),
  serverIds: z.array(z.string()),
  tables: z.array(z.string()),
  excluded: z.array(z.string()),
  rowCounts: z.record(z.string(), z.number().int().nonnegative()),
});
export type BackupManifest = z.infer<typeof backupManifest>;

export const backupHeader = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int(),
  manifest: backupManifest,
});

/** See BACKUP_FILE_NAME in the contract. */
export function isBackupFileName(name: string): boolean {
  return backupFileName.safeParse(name).success;
}

export function checkBackupFileName(name: string): string {
  if (!isBackupFileName(name)) {
    throw AppError.badRequest(
      `Invalid backup file name "${name.slice(0, 80)}": use letters, digits, spaces, dots, dashes, underscores; it must end in .json or .json.gz`,
    );
  }
  return name;
}

/** reelstat-backup-2026-11-24T02-40-00-000Z.json: sortable, and free of characters file systems dislike. */
export function newBackupFileName(now: Date, compressed: boolean): string {
  return `reelstat-backup-${now.toISOString().replace(/[:.]/g, '-')}.json${compressed ? '.gz' : ''}`;
}
