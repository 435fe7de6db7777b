import { z } from 'zod';

/**
 * Names of backup files Reelstat writes or accepts: a plain file name ending in .json (or .json.gz), without
 * path separators, traversal or control characters. Jellystat's "backup_2025-03-01 20-10-05.json" passes.
 */
export const BACKUP_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9 _.()+-]{0,199}\.json(\.gz)?$/;
export const backupFileName = z
  .string()
  .max(210, 'is too long for a backup file name')
  .refine((name) => BACKUP_FILE_NAME.test(name) && !name.includes('..'), {
    message: 'must be a backup file name: letters, digits, spaces, dots, dashes, underscores, ending in .json or .json.gz',
  });

/** SPEC.md §3 "Backup file". */
export const backupFile = z.object({ name: z.string(), datecreated: z.string(), size: z.number() });
export const backupFilesAnswer = z.array(backupFile);
export type BackupFileAnswer = z.infer<typeof backupFile>;

/** SPEC.md §3 "Backup table": name (shown), value (sent back), Excluded. */
export const backupTable = z.object({ name: z.string(), value: z.string(), Excluded: z.boolean() });
export const backupTablesAnswer = z.array(backupTable);
export type BackupTableAnswer = z.infer<typeof backupTable>;

export const setExcludedBackupTableBody = z.object({ table: z.string().min(1).max(100) });
export const backupFileParams = z.object({ name: backupFileName });

export const restoreAnswer = z.object({
  message: z.string(),
  summary: z.union([
    z.object({ kind: z.literal('reelstat'), tables: z.record(z.string(), z.number()), schemaMigration: z.string() }),
    z.object({ kind: z.literal('jellystat'), imported: z.record(z.string(), z.number()), skipped: z.record(z.string(), z.number()) }),
  ]),
});
export type RestoreAnswer = z.infer<typeof restoreAnswer>;

export const uploadAnswer = z.object({ message: z.string(), file: backupFile });

/** Live progress of a restore (socket.io event 'backup-restore'). */
export const restoreProgressEvent = z.object({
  state: z.enum(['running', 'done', 'failed']),
  name: z.string(),
  progress: z.number(),
  message: z.string(),
});
export type RestoreProgressEvent = z.infer<typeof restoreProgressEvent>;

/** How many backups the BackupTask keeps (the newest it wrote). */
export const backupSettings = z.object({ retention: z.number().int().min(1).max(1000) });
