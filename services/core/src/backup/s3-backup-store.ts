import type { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { Upload } from '@aws-sdk/lib-storage';
import type { BackupS3Config } from '../config/load-config.js';
import { AppError } from '../errors/app-error.js';
import { isBackupFileName } from './backup-format.js';
import type { BackupStore, StoredBackup } from './backup-store.js';

/**
 * Backups as objects in an S3-compatible bucket, shared by every api replica and scheduler. Uploads are
 * multipart and streamed (5 MiB parts), so a multi-gigabyte backup never sits in memory; an object appears
 * only when its upload completes.
 */
export class S3BackupStore implements BackupStore {
  private connection: Promise<S3Connection> | undefined;

  constructor(private readonly config: BackupS3Config) {}

  /**
   * The AWS SDK, loaded on first use: it adds about 10 MB to a process's memory, which a process that never
   * touches a bucket (every install without BACKUP_S3_*, and all but backup work) should not carry.
   */
  private s3(): Promise<S3Connection> {
    this.connection ??= (async () => {
      const [sdk, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
      const { config } = this;
      const client = new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials:
          config.accessKeyId && config.secretAccessKey
            ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
            : undefined,
      });
      return { sdk, Upload: storage.Upload, client };
    })();
    return this.connection;
  }

  get description(): string {
    return `s3://${this.config.bucket}/${this.config.prefix}`;
  }

  private key(name: string): string {
    return this.config.prefix ? `${this.config.prefix}/${name}` : name;
  }

  async list(): Promise<StoredBackup[]> {
    const files: StoredBackup[] = [];
    const prefix = this.config.prefix ? `${this.config.prefix}/` : undefined;
    const { sdk, client } = await this.s3();
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const name = (object.Key ?? '').slice(prefix?.length ?? 0);
        if (isBackupFileName(name)) files.push({ name, size: object.Size ?? 0, createdAt: object.LastModified ?? new Date(0) });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return files.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  async stat(name: string): Promise<StoredBackup | undefined> {
    const { sdk, client } = await this.s3();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key: this.key(name) }));
      return { name, size: head.ContentLength ?? 0, createdAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async write(name: string, content: Readable): Promise<StoredBackup> {
    const { Upload, client } = await this.s3();
    const upload = new Upload({
      client,
      params: { Bucket: this.config.bucket, Key: this.key(name), Body: content, ContentType: 'application/json' },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
    });
    await upload.done();
    const stored = await this.stat(name);
    if (!stored) throw new Error(`backup ${name} was uploaded but cannot be found in ${this.description}`);
    return stored;
  }

  async read(name: string): Promise<Readable> {
    const { sdk, client } = await this.s3();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: this.key(name) }));
      return object.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw AppError.notFound(`Backup file ${name} was not found`);
      throw error;
    }
  }

  async remove(name: string): Promise<boolean> {
    if (!(await this.stat(name))) return false;
    const { sdk, client } = await this.s3();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(name) }));
    return true;
  }
}

interface S3Connection {
  sdk: typeof S3Sdk;
  Upload: typeof Upload;
  client: S3Sdk.S3Client;
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}
