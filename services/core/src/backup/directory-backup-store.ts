import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors/app-error.js';
import { isBackupFileName } from './backup-format.js';
import type { BackupStore, StoredBackup } from './backup-store.js';

/** Backups as files in one directory (BACKUP_DIR). A file is written under a temporary name and renamed when complete. */
export class DirectoryBackupStore implements BackupStore {
  constructor(private readonly dir: string) {}

  get description(): string {
    return `directory ${this.dir}`;
  }

  async list(): Promise<StoredBackup[]> {
    await mkdir(this.dir, { recursive: true });
    const names = (await readdir(this.dir)).filter(isBackupFileName);
    const files = await Promise.all(names.map((name) => this.stat(name)));
    return files.filter((file): file is StoredBackup => file !== undefined).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  async stat(name: string): Promise<StoredBackup | undefined> {
    try {
      const info = await stat(path.join(this.dir, name));
      return info.isFile() ? { name, size: info.size, createdAt: info.mtime } : undefined;
    } catch {
      return undefined;
    }
  }

  async write(name: string, content: Readable): Promise<StoredBackup> {
    await mkdir(this.dir, { recursive: true });
    // Dot-prefixed: never matches a backup file name, so lists never show a file still being written.
    const partial = path.join(this.dir, `.partial-${randomUUID()}`);
    try {
      await pipeline(content, createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, path.join(this.dir, name));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return (await this.stat(name))!;
  }

  async read(name: string): Promise<Readable> {
    if (!(await this.stat(name))) throw AppError.notFound(`Backup file ${name} was not found`);
    return createReadStream(path.join(this.dir, name));
  }

  async remove(name: string): Promise<boolean> {
    if (!(await this.stat(name))) return false;
    await rm(path.join(this.dir, name), { force: true });
    return true;
  }
}
