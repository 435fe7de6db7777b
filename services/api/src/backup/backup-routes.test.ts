import { readFile, readdir, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@reelstat/core';
import { seedSample, tableChecksums } from '@reelstat/core/test-support/backup-checks.js';
import { findRollupDifferences } from '@reelstat/core/history/rollup-invariant.js';
import { startApiHarness, createAdmin, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';
import { waitFor } from '../../test/sync-harness.js';

const SERVER = '00000000-0000-4000-8000-0000000000c5';

describe('backup routes', () => {
  let h: ApiHarness;
  let token: string;
  let dir: string;
  let db: Database;
  const call = (method: string, p: string, body?: unknown) => h.call(method, p, { token, body });
  const files = async () => (await call('GET', '/backup/files')).body as Array<{ name: string; size: number; datecreated: string }>;
  const upload = async (name: string, content: Buffer | string) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const res = await fetch(`${h.url}/backup/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: (await res.json()) as { message: string } };
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'reelstat-backup-routes-'));
    h = await startApiHarness({ ROLES: 'api,scheduler', BACKUP_DIR: dir, BACKUP_UPLOAD_MAX_MB: '1' });
    token = await createAdmin(h);
    db = h.app.runtime.db;
    await db.query(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, is_default) VALUES ($1, 'sim', 'jellyfin', 'http://x', 'v1.x', true) RETURNING 1`,
      [SERVER],
    );
    await seedSample(db, SERVER, 2000);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  let backupName = '';

  it('lists the tables that can be excluded, and flips one (unknown → 400)', async () => {
    const tables = (await call('GET', '/api/getBackupTables')).body as Array<{ value: string; Excluded: boolean }>;
    expect(tables.map((t) => t.value)).toEqual(['app_settings', 'media_users', 'libraries', 'items', 'playback_history']);
    expect(tables.every((t) => !t.Excluded)).toBe(true);
    const flipped = await call('POST', '/api/setExcludedBackupTable', { table: 'media_users' });
    expect((flipped.body as typeof tables).find((t) => t.value === 'media_users')!.Excluded).toBe(true);
    const back = await call('POST', '/api/setExcludedBackupTable', { table: 'media_users' });
    expect((back.body as typeof tables).find((t) => t.value === 'media_users')!.Excluded).toBe(false);
    expect(await call('POST', '/api/setExcludedBackupTable', { table: 'admin_accounts' })).toMatchObject({ status: 400 });
    expect(await call('POST', '/api/setExcludedBackupTable', {})).toMatchObject({ status: 400 });
  });

  it('runs the BackupTask, lists the file, and downloads exactly the stored bytes', async () => {
    expect(await files()).toEqual([]);
    expect(await call('GET', '/backup/beginBackup')).toMatchObject({ status: 200, body: { message: 'BackupTask started' } });
    const [file] = await waitFor(async () => ((await files()).length ? await files() : undefined), 'the backup file', 60_000);
    backupName = file!.name;
    expect(file!.name).toMatch(/^reelstat-backup-.*\.json$/);
    const res = await fetch(`${h.url}/backup/files/${encodeURIComponent(file!.name)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${file!.name}"`);
    const downloaded = Buffer.from(await res.arrayBuffer());
    expect(downloaded.equals(await readFile(path.join(dir, file!.name)))).toBe(true);
    expect(downloaded.length).toBe(file!.size);
  });

  it('restores the backup over changed data', async () => {
    const before = await tableChecksums(db);
    await db.query(`DELETE FROM playback_history WHERE id % 2 = 0 RETURNING 1`);
    await db.query(`UPDATE media_users SET name = 'renamed' RETURNING 1`);
    const res = await call('GET', `/backup/restore/${encodeURIComponent(backupName)}`);
    expect(res).toMatchObject({
      status: 200,
      body: { message: expect.stringMatching(/^Restore complete: \d+ rows in 9 tables$/), summary: { kind: 'reelstat' } },
    });
    expect(await tableChecksums(db)).toEqual(before);
    expect(await findRollupDifferences(db)).toEqual([]);
  }, 120_000);

  it('refuses names with path separators or traversal, and unknown files', async () => {
    for (const bad of ['..%2F..%2Fetc%2Fpasswd.json', '..%2Fx.json', 'a%5Cb.json', 'notes.txt', '.hidden.json', 'x%00.json']) {
      for (const [method, p] of [
        ['GET', `/backup/files/${bad}`],
        ['DELETE', `/backup/files/${bad}`],
        ['GET', `/backup/restore/${bad}`],
      ] as const) {
        const res = await call(method, p);
        expect(res.status, `${method} ${p}`).toBe(400);
      }
    }
    expect(await call('GET', '/backup/files/nope.json')).toMatchObject({ status: 404 });
    expect(await call('GET', '/backup/restore/nope.json')).toMatchObject({ status: 404 });
    expect(await call('DELETE', '/backup/files/nope.json')).toMatchObject({ status: 404 });
  });

  it('answers each bad file with a clear 400 and changes nothing', async () => {
    const good = await readFile(path.join(dir, backupName), 'utf8');
    const lines = good.split('\n');
    const headerOf = () => JSON.parse(`${lines[0]}]}`);
    const withHeader = (change: (header: { formatVersion: number; manifest: { schemaMigration: string } }) => void) => {
      const header = headerOf();
      change(header);
      return [JSON.stringify(header).slice(0, -2), ...lines.slice(1)].join('\n');
    };
    const historyRow = lines.findIndex((l) => l.startsWith('{"table":"playback_history"')) + 1;
    const replaceLine = (index: number, line: string) => lines.map((l, i) => (i === index ? line : l)).join('\n');
    const row = JSON.parse(lines[historyRow]!.replace(/,$/, '')) as unknown[];
    const cases: Array<[string, string, RegExp]> = [
      ['not-json.json', 'this is not json', /Not a backup file/],
      ['truncated.json', good.slice(0, 200_000), /truncated|not valid JSON/],
      ['future.json', withHeader((h) => (h.formatVersion = 99)), /format version 99, newer than this Reelstat reads/],
      ['schema.json', withHeader((h) => (h.manifest.schemaMigration = '9999-from-the-future')), /newer database schema/],
      ['unknown-table.json', good.replace('{"table":"libraries"', '{"table":"secrets"'), /Unknown table "secrets"/],
      [
        'unknown-column.json',
        good.replace('"columns":["server_id","id","name","collection_type"', '"columns":["server_id","id","nom","collection_type"'),
        /Unknown column "nom"/,
      ],
      [
        'wrong-type.json',
        replaceLine(historyRow, `${JSON.stringify(row.map((v, i) => (i === 0 ? 'not a number' : v)))},`),
        /Table playback_history: invalid input syntax for type bigint/,
      ],
      ['duplicate.json', replaceLine(historyRow + 1, lines[historyRow]!), /Duplicate key in table playback_history/],
    ];
    const before = await tableChecksums(db);
    for (const [name, content, message] of cases) {
      await writeFile(path.join(dir, name), content);
      const res = await call('GET', `/backup/restore/${name}`);
      expect(res.status, name).toBe(400);
      expect((res.body as { message: string }).message, name).toMatch(message);
      expect(await tableChecksums(db), name).toEqual(before);
    }
    // Uploads are checked as they arrive: not JSON, truncated or from the future is refused and not kept.
    const small = (content: string) => `${content.split('\n', 1)[0]}\n]}\n`;
    const uploads: Array<[string, string]> = [
      ['not-json.json', cases[0]![1]],
      ['truncated.json', cases[1]![1]],
      ['future.json', small(cases[2]![1])],
      ['schema.json', small(cases[3]![1])],
    ];
    for (const [name, content] of uploads) {
      const res = await upload(`upload-${name}`, content);
      expect(res.status, name).toBe(400);
    }
    expect((await files()).map((f) => f.name)).not.toContain('upload-not-json.json');
  }, 120_000);

  it('uploads a .json backup (and refuses other files, or a file over the size limit, keeping nothing)', async () => {
    const content = '[{"jf_users":[{"Id":"U7","Name":"zoe","IsAdministrator":false}]}]';
    const res = await upload('backup_2025-03-01 20-10-05.json', content);
    expect(res).toMatchObject({ status: 201, body: { message: 'Upload complete!' } });
    expect(await readFile(path.join(dir, 'backup_2025-03-01 20-10-05.json'), 'utf8')).toBe(content);
    expect(await upload('notes.txt', content)).toMatchObject({ status: 400, body: { message: 'Only .json backup files can be uploaded' } });
    const big = await upload('big.json', Buffer.alloc(3 * 1024 * 1024, ' '));
    expect(big).toMatchObject({ status: 413, body: { message: expect.stringContaining('larger than the upload limit (1 MB') } });
    expect((await readdir(dir)).filter((f) => f.startsWith('big'))).toEqual([]);
    // The uploaded Jellystat file imports into the linked server.
    const imported = await call('GET', `/backup/restore/${encodeURIComponent('backup_2025-03-01 20-10-05.json')}`);
    expect(imported).toMatchObject({ status: 200, body: { summary: { kind: 'jellystat', imported: { users: 1 } } } });
  });

  it('deletes a file', async () => {
    expect(await call('DELETE', `/backup/files/${encodeURIComponent(backupName)}`)).toMatchObject({ status: 200 });
    expect((await files()).map((f) => f.name)).not.toContain(backupName);
    expect(await call('DELETE', `/backup/files/${encodeURIComponent(backupName)}`)).toMatchObject({ status: 404 });
  });

  it('reads and sets the retention (1-1000)', async () => {
    expect(await call('GET', '/backup/settings')).toMatchObject({ status: 200, body: { retention: 5 } });
    expect(await call('POST', '/backup/settings', { retention: 3 })).toMatchObject({ status: 200, body: { retention: 3 } });
    expect(await call('GET', '/backup/settings')).toMatchObject({ body: { retention: 3 } });
    expect(await call('POST', '/backup/settings', { retention: 0 })).toMatchObject({ status: 400 });
    expect(await call('POST', '/backup/settings', { retention: 'many' })).toMatchObject({ status: 400 });
  });

  it('needs a login', async () => {
    expect((await h.call('GET', '/backup/files')).status).toBe(401);
    expect((await h.call('GET', '/backup/beginBackup')).status).toBe(401);
  });
});
