import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { AppSettings } from '../../settings/app-settings.js';
import { createHistoryTestDatabase, testConfig } from '../../test-support/test-services.js';
import { findRollupDifferences } from '../../history/rollup-invariant.js';
import { BackupService } from '../backup-service.js';
import { DirectoryBackupStore } from '../directory-backup-store.js';

const SERVER = '00000000-0000-4000-8000-00000000a115';
const fixture = (name: string) => path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', name);

describe('importing a Jellystat backup', () => {
  let db: Database;
  let close: () => Promise<void>;
  let dir: string;
  let backups: BackupService;
  const count = async (sql: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`))[0]!.n;

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(SERVER));
    dir = await mkdtemp(path.join(tmpdir(), 'reelstat-jellystat-test-'));
    backups = new BackupService(testConfig({ BACKUP_DIR: dir }), db, new AppSettings(db), new DirectoryBackupStore(dir));
    await copyFile(fixture('jellystat-1.1.8.json'), path.join(dir, 'backup_2025-03-01 20-10-05.json'));
    await copyFile(fixture('jellystat-1.0.7.json'), path.join(dir, 'backup_2023-06-01 10-00-00.json'));
  });
  afterAll(async () => {
    await close?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('imports every table with the expected counts, each play once, and says what it skipped and why', async () => {
    const summary = await backups.restore('backup_2025-03-01 20-10-05.json');
    expect(summary).toEqual({
      kind: 'jellystat',
      imported: { libraries: 3, items: 7, users: 2, plays: 5, 'plugin plays': 1, files: 2 },
      skipped: {
        'item without an Id or a required field': 1,
        'item already present': 1,
        'play shorter than 1 second': 1,
        'play without an Id, user, item or date': 1,
        'plugin row already in the activity': 1,
        'plugin row matching a play already in the history': 1,
        'plugin row without a user, item, date or duration': 1,
        'file already present or of an item the backup does not have': 1,
      },
    });
    expect(await count('playback_history')).toBe(6);
    const plays = await db.query<Record<string, unknown>>(
      `SELECT play_key, user_id, item_id, item_type, series_id, season_id, library_id, play_method, played_seconds, source,
              started_at, (SELECT value->>'VideoCodec' FROM play_json_values WHERE id = transcoding_info_id) AS codec
       FROM playback_history ORDER BY play_key`,
    );
    expect(plays.map((p) => [p.play_key, p.user_id, p.item_id, p.library_id, p.play_method])).toEqual([
      ['jellystat-pr:18', 'U2', 'M1', 'L1', 'Transcode'],
      ['jellystat:0b6e3c52-9a4f-4d1e-8f3a-2c7d5e9b1a40', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'M1', 'L1', 'DirectPlay'],
      ['jellystat:17', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'E1', 'L2', 'DirectPlay'],
      ['jellystat:20', 'U2', 'E2', 'L2', 'Transcode'],
      ['jellystat:7f1d2a90-3b4c-4e5f-9a6b-7c8d9e0f1a2b', 'U2', 'E1', 'L2', 'Transcode'],
      ['jellystat:c0ffee00-0000-4000-8000-000000000001', 'U9', 'M2', 'L1', 'DirectStream'],
    ]);
    const pilot = plays.find((p) => p.play_key === 'jellystat:7f1d2a90-3b4c-4e5f-9a6b-7c8d9e0f1a2b')!;
    expect(pilot).toMatchObject({ item_type: 'Episode', series_id: 'T1', season_id: 'S01', played_seconds: 1385, codec: 'h264' });
    // Start = end − duration.
    expect((pilot.started_at as Date).toISOString()).toBe('2025-03-02T21:06:55.000Z');
    // The deleted user comes back as a removed user named from the play; archived items stay archived.
    expect(await db.query(`SELECT name, removed_at IS NOT NULL AS removed FROM media_users WHERE id = 'U9'`)).toEqual([
      { name: 'carol', removed: true },
    ]);
    expect(await db.query(`SELECT id FROM items WHERE archived ORDER BY id`)).toEqual([{ id: 'A1' }, { id: 'M2' }]);
    expect(await db.query(`SELECT item_id, genre FROM item_genres ORDER BY 1, 2`)).toEqual([
      { item_id: 'M1', genre: 'Animation' },
      { item_id: 'M1', genre: 'Comedy' },
      { item_id: 'M2', genre: 'Fantasy' },
    ]);
    expect(await db.query(`SELECT id, library_id FROM items WHERE type IN ('Season', 'Episode') ORDER BY id`)).toEqual([
      { id: 'E1', library_id: 'L2' },
      { id: 'E2', library_id: 'L2' },
      { id: 'S01', library_id: 'L2' },
    ]);
    expect(await db.query(`SELECT id, path, size FROM media_sources ORDER BY id`)).toEqual([
      { id: 'E1', path: '/tv/e1.mkv', size: null },
      { id: 'M1', path: '/m/bbb.mp4', size: 276134947 },
    ]);
    expect(await findRollupDifferences(db)).toEqual([]);
  });

  it('importing the same file again adds nothing', async () => {
    const before = await count('playback_history');
    const summary = await backups.restore('backup_2025-03-01 20-10-05.json');
    expect(summary).toMatchObject({ kind: 'jellystat', imported: {} });
    expect(summary.kind === 'jellystat' && summary.skipped['play already imported']).toBe(6);
    expect(await count('playback_history')).toBe(before);
    expect(await findRollupDifferences(db)).toEqual([]);
  });

  it('imports a file from an older Jellystat (columns missing, no plugin table)', async () => {
    await db.query('DELETE FROM playback_history RETURNING 1');
    await db.query('DELETE FROM items RETURNING 1');
    await db.query('DELETE FROM libraries RETURNING 1');
    const summary = await backups.restore('backup_2023-06-01 10-00-00.json');
    expect(summary).toMatchObject({ kind: 'jellystat', imported: { libraries: 2, items: 6, plays: 2 } });
    expect(await db.query(`SELECT id, archived FROM libraries ORDER BY id`)).toEqual([
      { id: 'L1', archived: false },
      { id: 'L2', archived: false },
    ]);
  });

  it('refuses a file that is not JSON, truncated, or not shaped like a Jellystat backup, and changes nothing', async () => {
    const before = await count('items');
    const cases: Array<[string, string, string]> = [
      ['notjson.json', 'hello', 'Not a backup file'],
      ['truncated.json', '[{"jf_libraries":[{"Id":"LX","Name":"x"', 'not valid JSON or is truncated'],
      ['shape.json', '[1, 2]', 'Not a Jellystat backup'],
      ['rows.json', '[{"jf_libraries":[1]}]', 'rows of jf_libraries must be objects'],
    ];
    for (const [name, content, message] of cases) {
      await writeFile(path.join(dir, name), content);
      await expect(backups.restore(name)).rejects.toMatchObject({ status: 400, message: expect.stringContaining(message) });
    }
    // A bad row late in a file rolls the rows before it back.
    await writeFile(path.join(dir, 'late.json'), '[{"jf_libraries":[{"Id":"LATE","Name":"late"}]},{"jf_users":[1]}]');
    await expect(backups.restore('late.json')).rejects.toMatchObject({ status: 400 });
    expect(await count(`libraries WHERE id = 'LATE'`)).toBe(0);
    expect(await count('items')).toBe(before);
  });
});
