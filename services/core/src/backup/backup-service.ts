import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { AppConfig } from '../config/load-config.js';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import type { AppSettings } from '../settings/app-settings.js';
import { checkBackupFileName } from './backup-format.js';
import { restoreReelstatBackup, type RestoreHooks, type RestoreSummary } from './backup-restore.js';
import type { BackupStore, StoredBackup } from './backup-store.js';
import { BACKUP_GROUPS, isBackupGroup } from './backup-tables.js';
import { writeBackup, type BackupProgress } from './backup-writer.js';
import { DirectoryBackupStore } from './directory-backup-store.js';
import { inspectBackupFile } from './inspect-backup.js';
import { importJellystatBackup, type JellystatImportSummary } from './jellystat/jellystat-import.js';
import { LineReader } from './line-reader.js';
import { openRestoreSession } from './restore-lock.js';
import { S3BackupStore } from './s3-backup-store.js';
import { startsWith } from './stream-start.js';

export type RestoreResult = RestoreSummary | JellystatImportSummary;

export function backupStoreFor(config: AppConfig): BackupStore {
  return config.backup.s3 ? new S3BackupStore(config.backup.s3) : new DirectoryBackupStore(config.backup.dir);
}

/** Files the BackupTask writes (and prunes); uploads keep their own names and are only deleted by hand. */
const TASK_FILE = /^reelstat-backup-/;

/** Backups, restores and imports: what the Backup tab and the BackupTask call. */
export class BackupService {
  constructor(
    private readonly config: AppConfig,
    private readonly db: Database,
    private readonly settings: AppSettings,
    readonly store: BackupStore = backupStoreFor(config),
  ) {}

  async files(): Promise<StoredBackup[]> {
    return this.store.list();
  }

  /** SPEC.md's backup tables: name, value, Excluded. */
  async tables(): Promise<Array<{ name: string; value: string; Excluded: boolean }>> {
    const excluded = await this.settings.get('BACKUP_EXCLUDED_TABLES');
    return BACKUP_GROUPS.map((group) => ({ name: group.name, value: group.value, Excluded: excluded.includes(group.value) }));
  }

  async toggleExcluded(table: string) {
    if (!isBackupGroup(table))
      throw AppError.badRequest(`Unknown backup table "${table}"; one of ${BACKUP_GROUPS.map((g) => g.value).join(', ')}`);
    const excluded = await this.settings.get('BACKUP_EXCLUDED_TABLES');
    await this.settings.set(
      'BACKUP_EXCLUDED_TABLES',
      excluded.includes(table) ? excluded.filter((t) => t !== table) : [...excluded, table],
    );
    return this.tables();
  }

  /** Writes a backup, then keeps only the newest BACKUP_RETENTION files the task wrote. */
  async backup(options: { signal?: AbortSignal; onProgress?: (progress: BackupProgress) => void } = {}) {
    const excluded = (await this.settings.get('BACKUP_EXCLUDED_TABLES')).filter(isBackupGroup);
    const stored = await writeBackup(this.db, this.store, { excluded, compress: this.config.backup.compress, ...options });
    const keep = await this.settings.get('BACKUP_RETENTION');
    const written = (await this.store.list()).filter((file) => TASK_FILE.test(file.name));
    const pruned: string[] = [];
    for (const old of written.slice(keep)) {
      if (old.name !== stored.name && (await this.store.remove(old.name))) pruned.push(old.name);
    }
    return { stored, pruned };
  }

  async download(name: string): Promise<{ file: StoredBackup; stream: Readable }> {
    checkBackupFileName(name);
    const file = await this.store.stat(name);
    if (!file) throw AppError.notFound(`Backup file ${name} was not found`);
    return { file, stream: await this.store.read(name) };
  }

  async remove(name: string): Promise<void> {
    checkBackupFileName(name);
    if (!(await this.store.remove(name))) throw AppError.notFound(`Backup file ${name} was not found`);
  }

  /**
   * Checks an uploaded file (already streamed to a local temporary file) and stores it. A Reelstat backup or
   * a Jellystat backup is accepted; anything else is a 400 and nothing is kept.
   */
  async acceptUpload(name: string, tempFile: string): Promise<StoredBackup> {
    checkBackupFileName(name);
    try {
      await inspectBackupFile(this.open(createReadStream(tempFile), name));
      return await this.store.write(name, createReadStream(tempFile));
    } finally {
      await rm(tempFile, { force: true });
    }
  }

  /** Restores a stored Reelstat backup, or imports a stored Jellystat backup. One at a time in the cluster (409). */
  async restore(name: string, hooks: RestoreHooks = {}): Promise<RestoreResult> {
    checkBackupFileName(name);
    if (!(await this.store.stat(name))) throw AppError.notFound(`Backup file ${name} was not found`);
    const client = await openRestoreSession(this.db.url);
    try {
      const { first, stream } = await startsWith(this.open(await this.store.read(name), name));
      if (first === '{') return await restoreReelstatBackup(client, this.db.url, new LineReader(stream), hooks);
      if (first === '[') {
        const server = await this.db.query<{ id: string }>('SELECT id FROM media_servers ORDER BY is_default DESC, created_at LIMIT 1');
        if (!server[0]) throw AppError.conflict('Link a media server before importing a Jellystat backup: its data is imported into it');
        return await importJellystatBackup(this.db, stream, server[0].id, hooks);
      }
      stream.destroy();
      throw AppError.badRequest('Not a backup file: it is not a JSON object (Reelstat) or array (Jellystat)');
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private open(stream: Readable, name: string): Readable {
    if (!name.endsWith('.gz')) return stream;
    const gunzip = createGunzip();
    stream.on('error', (error) => gunzip.destroy(error));
    gunzip.on('error', () => stream.destroy());
    return stream.pipe(gunzip);
  }
}
