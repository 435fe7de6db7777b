import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryTestDatabase, testConfig } from '../test-support/test-services.js';
import type { Database } from '../db/database.js';
import { AppSettings } from '../settings/app-settings.js';
import { BackupService } from './backup-service.js';
import { DirectoryBackupStore } from './directory-backup-store.js';
import { schemaShape, seedSample, tableChecksums } from '../test-support/backup-checks.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import { buildDeferredIndexes } from './deferred-indexes.js';

const SERVER = '00000000-0000-4000-8000-0000000000b1';
const PLAYS = 100_000;

/** A directory store whose read() waits, once it was called, until open(): a restore held with its lock taken. */
class GatedStore extends DirectoryBackupStore {
  private arrived!: () => void;
  private release!: () => void;
  readonly reading = new Promise<void>((resolve) => (this.arrived = resolve));
  private readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  override async read(name: string): Promise<Readable> {
    this.arrived();
    await this.opened;
    return super.read(name);
  }

  open(): void {
    this.release();
  }
}

async function wipe(db: Database) {
  await db.query('DELETE FROM media_servers RETURNING 1');
  await db.query('DELETE FROM app_settings RETURNING 1');
}

describe('backup and restore', () => {
  let db: Database;
  let close: () => Promise<void>;
  let dir: string;
  let backups: BackupService;
  let settings: AppSettings;

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(SERVER));
    dir = await mkdtemp(path.join(tmpdir(), 'reelstat-backup-test-'));
    settings = new AppSettings(db);
    backups = new BackupService(testConfig({ BACKUP_DIR: dir }), db, settings, new DirectoryBackupStore(dir));
    await seedSample(db, SERVER, PLAYS);
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await rm(dir, { recursive: true, force: true });
  });

  it(`round trip of ${PLAYS} plays: backup → wipe → restore gives every table back, and the rollups agree with the history`, async () => {
    const before = await tableChecksums(db);
    const shape = await schemaShape(db);
    expect(shape.index).toContainEqual(expect.stringMatching(/^history_search_values_trgm: /));
    expect(before.playback_history!.rows).toBe(PLAYS);
    const progress: number[] = [];
    const { stored } = await backups.backup({ onProgress: (p) => progress.push(p.rowsWritten) });
    expect(progress.at(-1)).toBe(Object.values(before).reduce((a, b) => a + b.rows, 0));

    await wipe(db);
    expect((await tableChecksums(db)).playback_history!.rows).toBe(0);
    const summary = await backups.restore(stored.name);
    expect(summary).toMatchObject({ kind: 'reelstat', tables: { playback_history: PLAYS, items: 1000, media_streams: 2000 } });
    expect(await tableChecksums(db)).toEqual(before);
    expect(await findRollupDifferences(db)).toEqual([]);
    // The new tables were swapped in by renames: same indexes, keys, triggers and sequences as before.
    expect(await schemaShape(db)).toEqual(shape);
    const [rollups] = await db.query<{ plays: number }>('SELECT sum(plays)::int AS plays FROM play_rollups_daily');
    expect(rollups!.plays).toBe(PLAYS);
    // New plays continue after the restored ids.
    const [next] = await db.query<{ id: number }>(
      `INSERT INTO playback_history (server_id, play_key, user_id, user_name, item_id, item_name, started_at) VALUES ($1, 'after', 'u', 'u', 'i', 'i', now()) RETURNING id`,
      [SERVER],
    );
    expect(next!.id).toBe(PLAYS + 1);
    await db.query(`DELETE FROM playback_history WHERE play_key = 'after' RETURNING 1`);
  }, 240_000);

  it('restores a backup written before 0022 (stream details inline as JSON): each distinct value is stored once, every row reads it back', async () => {
    const { stored } = await backups.backup();
    const lines = (await readFile(path.join(dir, stored.name), 'utf8')).split('\n');
    const header = JSON.parse(`${lines[0]}]}`);
    header.manifest.schemaMigration = '0018-card-rollups';
    lines[0] = `${JSON.stringify(header).slice(0, -2)}`;
    // The file has the shape of the history before 0022; give its rows stream details this database never saw.
    let details = -1;
    let transcoding = -1;
    let inHistory = false;
    const out = lines.map((line) => {
      if (line.startsWith('{"table":')) {
        const section = JSON.parse(`${line}]}`) as { table: string; columns: string[] };
        inHistory = section.table === 'playback_history';
        if (inHistory) [details, transcoding] = [section.columns.indexOf('stream_details'), section.columns.indexOf('transcoding_info')];
        return line;
      }
      if (!inHistory || !line.startsWith('[')) return line;
      const comma = line.endsWith(',');
      const row = JSON.parse(comma ? line.slice(0, -1) : line) as unknown[];
      row[details] = { Source: { VideoCodec: 'vc1' }, Old: (row[0] as number) % 5 };
      return JSON.stringify(row) + (comma ? ',' : '');
    });
    expect([details, transcoding].every((i) => i > 0)).toBe(true);
    await writeFile(path.join(dir, 'before-0022.json'), out.join('\n'));
    await wipe(db);
    await db.query('TRUNCATE play_json_values');
    await backups.restore('before-0022.json');
    const [counts] = await db.query<{ plays: number; details: number; transcodes: number; values: number }>(
      `SELECT count(*)::int AS plays, count(DISTINCT stream_details_id)::int AS details, count(transcoding_info_id)::int AS transcodes,
         (SELECT count(*)::int FROM play_json_values) AS values FROM playback_history`,
    );
    expect(counts).toEqual({ plays: PLAYS, details: 5, transcodes: Math.floor((PLAYS + 1) / 3), values: 6 });
    const wrong = await db.query(
      `SELECT id FROM playback_history h
       WHERE (SELECT value FROM play_json_values WHERE id = h.stream_details_id) <> jsonb_build_object('Source', jsonb_build_object('VideoCodec', 'vc1'), 'Old', h.id % 5)
       LIMIT 1`,
    );
    expect(wrong).toEqual([]);
    expect(await findRollupDifferences(db)).toEqual([]);
  }, 180_000);

  it('refuses a bad value deep in a large table (loaded over two connections) and changes nothing', async () => {
    const { stored } = await backups.backup();
    const lines = (await readFile(path.join(dir, stored.name), 'utf8')).split('\n');
    const first = lines.findIndex((l) => l.startsWith('{"table":"playback_history"')) + 1;
    const at = first + PLAYS - 10;
    const row = JSON.parse(lines[at]!.replace(/,$/, '')) as unknown[];
    lines[at] = `${JSON.stringify(row.map((v, i) => (i === 0 ? 'not a number' : v)))},`;
    await writeFile(path.join(dir, 'bad-deep.json'), lines.join('\n'));
    const before = await tableChecksums(db);
    const shape = await schemaShape(db);
    await expect(backups.restore('bad-deep.json')).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Table playback_history: invalid input syntax for type bigint/),
    });
    expect(await tableChecksums(db)).toEqual(before);
    expect(await schemaShape(db)).toEqual(shape);
  }, 240_000);

  it('builds an index a restore deferred when the process that was building it stopped (the next start resumes it)', async () => {
    const [index] = await db.query<{ definition: string }>(
      `SELECT indexdef AS definition FROM pg_indexes WHERE schemaname = 'public' AND indexname = 'history_search_values_trgm'`,
    );
    // As a kill right after the swap leaves it: the row written in the swap, the index not built (or invalid).
    await db.query('DROP INDEX history_search_values_trgm');
    await db.query(
      `INSERT INTO deferred_indexes (name, table_name, definition) VALUES ('history_search_values_trgm', 'history_search_values', $1)`,
      [index!.definition],
    );
    expect(await buildDeferredIndexes(db.url)).toBe(1);
    const [after] = await db.query<{ definition: string; valid: boolean }>(
      `SELECT pg_get_indexdef(i.indexrelid) AS definition, i.indisvalid AS valid FROM pg_index i
       WHERE i.indexrelid = 'public.history_search_values_trgm'::regclass`,
    );
    expect(after).toEqual({ definition: index!.definition, valid: true });
    expect(await db.query('SELECT name FROM deferred_indexes')).toEqual([]);
    expect(await buildDeferredIndexes(db.url)).toBe(0);
  }, 120_000);

  it('leaves excluded tables out of the backup, and keeps their current rows on restore', async () => {
    await settings.set('BACKUP_EXCLUDED_TABLES', ['playback_history', 'media_users']);
    const { stored } = await backups.backup();
    const head = (await readFile(path.join(dir, stored.name), 'utf8')).split('\n', 1)[0]!;
    const manifest = JSON.parse(`${head}]}`).manifest;
    expect(manifest.tables).toEqual([
      'media_servers',
      'app_settings',
      'libraries',
      'items',
      'media_sources',
      'media_streams',
      'item_genres',
    ]);
    expect(manifest.excluded).toEqual(['playback_history', 'media_users']);
    const before = await tableChecksums(db);
    const shape = await schemaShape(db);
    await db.query(`UPDATE items SET name = 'changed' WHERE id = 'movie-1' RETURNING 1`);
    await backups.restore(stored.name);
    // Items come back from the file; history and users (not in it) are untouched.
    expect(await tableChecksums(db)).toEqual({ ...before, app_settings: (await tableChecksums(db)).app_settings });
    expect(await findRollupDifferences(db)).toEqual([]);
    expect(await schemaShape(db)).toEqual(shape);
    await settings.set('BACKUP_EXCLUDED_TABLES', []);
  }, 240_000);

  it('keeps the newest BACKUP_RETENTION backups the task wrote', async () => {
    await settings.set('BACKUP_RETENTION', 2);
    await settings.set('BACKUP_EXCLUDED_TABLES', ['playback_history']);
    for (let i = 0; i < 3; i++) await backups.backup();
    const files = (await backups.files()).filter((f) => f.name.startsWith('reelstat-backup-'));
    expect(files).toHaveLength(2);
    await settings.set('BACKUP_EXCLUDED_TABLES', []);
  }, 120_000);

  it('restores a backup of an older schema version: columns added since take their defaults', async () => {
    await settings.set('BACKUP_EXCLUDED_TABLES', ['playback_history']);
    const { stored } = await backups.backup();
    const lines = (await readFile(path.join(dir, stored.name), 'utf8')).split('\n');
    // Make it a backup taken at 0001 (items had no etag column before 0002).
    const header = JSON.parse(`${lines[0]}]}`);
    header.manifest.schemaMigration = '0001-initial-schema';
    lines[0] = `${JSON.stringify(header).slice(0, -2)}`;
    let columns: string[] = [];
    let etag = -1;
    let inItems = false;
    const out = lines.map((line) => {
      if (line.startsWith('{"table":')) {
        const section = JSON.parse(`${line}]}`);
        inItems = section.table === 'items';
        if (inItems) {
          columns = section.columns;
          etag = columns.indexOf('etag');
          return `${JSON.stringify({ table: 'items', columns: columns.filter((c) => c !== 'etag') }).slice(0, -1)},"rows":[`;
        }
        return line;
      }
      if (inItems && line.startsWith('[')) {
        const comma = line.endsWith(',');
        const row = JSON.parse(comma ? line.slice(0, -1) : line) as unknown[];
        row.splice(etag, 1);
        return JSON.stringify(row) + (comma ? ',' : '');
      }
      return line;
    });
    expect(etag).toBeGreaterThan(0);
    await writeFile(path.join(dir, 'old-schema.json'), out.join('\n'));
    await db.query(`UPDATE items SET etag = 'e1' RETURNING 1`);
    const summary = await backups.restore('old-schema.json');
    expect(summary).toMatchObject({ kind: 'reelstat', schemaMigration: '0001-initial-schema', tables: { items: 1000 } });
    const [etags] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE etag IS NOT NULL');
    expect(etags!.n).toBe(0);
    await settings.set('BACKUP_EXCLUDED_TABLES', []);
  }, 120_000);

  it('round trips a compressed backup', async () => {
    const gz = new BackupService(testConfig({ BACKUP_DIR: dir, BACKUP_COMPRESS: 'true' }), db, settings, new DirectoryBackupStore(dir));
    await settings.set('BACKUP_EXCLUDED_TABLES', ['playback_history']);
    const before = await tableChecksums(db);
    const { stored } = await gz.backup();
    expect(stored.name).toMatch(/\.json\.gz$/);
    await db.query(`DELETE FROM items RETURNING 1`);
    await gz.restore(stored.name);
    expect(await tableChecksums(db)).toEqual(before);
    await settings.set('BACKUP_EXCLUDED_TABLES', []);
  }, 120_000);

  it('a concurrent second restore is refused with a 409', async () => {
    await settings.set('BACKUP_EXCLUDED_TABLES', ['playback_history']);
    const { stored } = await backups.backup();
    // The first restore takes the lock, then reads its file: the gate holds it there (lock held) until the
    // second one has been refused, so the outcome does not depend on which finishes first.
    const gate = new GatedStore(dir);
    const gated = new BackupService(testConfig({ BACKUP_DIR: dir }), db, settings, gate);
    const first = gated.restore(stored.name);
    await gate.reading;
    await expect(backups.restore(stored.name)).rejects.toMatchObject({
      status: 409,
      message: 'A restore is already running; wait for it to finish',
    });
    gate.open();
    await expect(first).resolves.toMatchObject({ kind: 'reelstat' });
    // The lock went with the first restore's connection: a restore runs again.
    await expect(backups.restore(stored.name)).resolves.toMatchObject({ kind: 'reelstat' });
    await settings.set('BACKUP_EXCLUDED_TABLES', []);
  }, 120_000);

  it('streams: the writer accepts an aborted signal and leaves no file behind', async () => {
    const controller = new AbortController();
    const before = (await backups.files()).length;
    const run = backups.backup({ signal: controller.signal, onProgress: () => controller.abort() });
    await expect(run).rejects.toThrow();
    expect((await backups.files()).length).toBe(before);
    expect(Readable).toBeDefined();
  }, 120_000);
});
