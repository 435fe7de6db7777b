import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupStore } from './backup-store.js';
import { DirectoryBackupStore } from './directory-backup-store.js';
import { S3BackupStore } from './s3-backup-store.js';

/** Both stores, the S3 one against a real S3-protocol server (s3rver) started here on loopback. */
const stores: Array<[string, () => Promise<{ store: BackupStore; stop(): Promise<void> }>]> = [
  [
    'directory',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'reelstat-store-'));
      return { store: new DirectoryBackupStore(path.join(dir, 'backups')), stop: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
  [
    's3',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'reelstat-s3rver-'));
      const server = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: dir,
        configureBuckets: [{ name: 'reelstat-backups' }],
      });
      const { port } = await server.run();
      const store = new S3BackupStore({
        endpoint: `http://127.0.0.1:${port}`,
        bucket: 'reelstat-backups',
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        prefix: 'prod/reelstat',
        forcePathStyle: true,
      });
      return {
        store,
        async stop() {
          await server.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

describe.each(stores)('backup store contract (%s)', (_kind, make) => {
  let store: BackupStore;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, stop } = await make());
  });
  afterAll(async () => {
    await stop?.();
  });

  it('starts empty, and answers not found for a missing file', async () => {
    expect(await store.list()).toEqual([]);
    expect(await store.stat('missing.json')).toBeUndefined();
    await expect(store.read('missing.json')).rejects.toMatchObject({ status: 404 });
    expect(await store.remove('missing.json')).toBe(false);
  });

  it('writes a stream, lists it with its size, reads back the same bytes, and deletes it', async () => {
    // 12 MiB in 64 KiB chunks: more than one S3 multipart part, never one buffer.
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const chunks = 192;
    const stored = await store.write(
      'reelstat-backup-1.json',
      Readable.from(
        (function* () {
          for (let i = 0; i < chunks; i++) yield chunk;
        })(),
      ),
    );
    expect(stored).toMatchObject({ name: 'reelstat-backup-1.json', size: chunk.length * chunks });
    await store.write('backup_2025-03-01 20-10-05.json', Readable.from(['[{"jf_users":[]}]']));
    const listed = await store.list();
    expect(listed.map((f) => f.name).sort()).toEqual(['backup_2025-03-01 20-10-05.json', 'reelstat-backup-1.json']);
    expect(listed.every((f) => f.createdAt instanceof Date && f.createdAt.getTime() > 0)).toBe(true);
    expect(await text(await store.read('backup_2025-03-01 20-10-05.json'))).toBe('[{"jf_users":[]}]');
    expect((await text(await store.read('reelstat-backup-1.json'))).length).toBe(chunk.length * chunks);
    expect(await store.remove('reelstat-backup-1.json')).toBe(true);
    expect((await store.list()).map((f) => f.name)).toEqual(['backup_2025-03-01 20-10-05.json']);
  });

  it('overwrites a file of the same name', async () => {
    await store.write('same.json', Readable.from(['first version']));
    await store.write('same.json', Readable.from(['second']));
    expect(await text(await store.read('same.json'))).toBe('second');
    expect((await store.stat('same.json'))?.size).toBe(6);
  });

  it('shows nothing for a write that failed part-way', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 'x'));
        this.destroy(new Error('source broke'));
      },
    });
    await expect(store.write('broken.json', failing)).rejects.toThrow();
    expect(await store.stat('broken.json')).toBeUndefined();
    expect((await store.list()).map((f) => f.name)).not.toContain('broken.json');
  });
});
