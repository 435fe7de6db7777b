import type { Readable } from 'node:stream';

export interface StoredBackup {
  name: string;
  size: number;
  createdAt: Date;
}

/**
 * Where backup files live. Two implementations pass one contract test (backup-store.contract.test.ts):
 * a directory (single node, or a shared volume) and S3-compatible object storage (a cluster).
 * Names are checked by the caller (checkBackupFileName) before they reach a store.
 */
export interface BackupStore {
  readonly description: string;
  /** Newest first. Only files with a backup file name are listed. */
  list(): Promise<StoredBackup[]>;
  stat(name: string): Promise<StoredBackup | undefined>;
  /** Streams a file in. Nothing is visible under `name` until the whole stream was stored. */
  write(name: string, content: Readable): Promise<StoredBackup>;
  /** Rejects with a not_found AppError when there is no such file. */
  read(name: string): Promise<Readable>;
  /** True when something was deleted. */
  remove(name: string): Promise<boolean>;
}
