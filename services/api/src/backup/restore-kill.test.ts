import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppSettings,
  BackupService,
  clientPasswordDigest,
  DirectoryBackupStore,
  migrateToLatest,
  openDatabase,
  type Database,
} from '@reelstat/core';
import { createTestDatabase, testConfig, testLogger, type TestDatabase } from '@reelstat/core/test-support/test-services.js';
import { schemaShape, seedSample, tableChecksums } from '@reelstat/core/test-support/backup-checks.js';
import { findRollupDifferences } from '@reelstat/core/history/rollup-invariant.js';
import { spawnReelstat, type SpawnedReelstat } from '@reelstat/server/test-support/spawn-reelstat.js';

const SERVER = '00000000-0000-4000-8000-0000000000d1';

/**
 * A restore killed with SIGKILL in the middle of its swap transaction leaves the previous data (and no staging
 * or retired tables in the way); it can run again.
 */
describe('restore killed with SIGKILL', () => {
  let database: TestDatabase;
  let db: Database;
  let dir: string;
  let app: SpawnedReelstat | undefined;
  let backupName = '';

  const start = async () => {
    const started = await spawnReelstat({
      DATABASE_URL: database.url,
      DATA_DIR: dir,
      BACKUP_DIR: path.join(dir, 'backups'),
      ROLES: 'api',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'secret-1',
      JWT_SECRET: 'kill-test-secret-kill-test-secret-012345',
      UPDATE_CHECK_URL: '',
    });
    await started.waitReady();
    // The administrator from the environment is created just after start-up: retry the login briefly.
    let token: string | undefined;
    for (let attempt = 0; !token && attempt < 100; attempt++) {
      const login = await fetch(`${started.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: clientPasswordDigest('secret-1') }),
      });
      token = login.ok ? ((await login.json()) as { token: string }).token : undefined;
      if (!token) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!token) throw new Error(`login failed:\n${started.output()}`);
    return {
      started,
      restore: () => fetch(`${started.url}/backup/restore/${backupName}`, { headers: { authorization: `Bearer ${token}` } }),
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url, testLogger);
    await migrateToLatest(db, testLogger);
    await db.query(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, 'sim', 'jellyfin', 'http://x', 'v1.x') RETURNING 1`,
      [SERVER],
    );
    await seedSample(db, SERVER, 30_000);
    dir = await mkdtemp(path.join(tmpdir(), 'reelstat-restore-kill-'));
    const backups = new BackupService(
      testConfig({ BACKUP_DIR: path.join(dir, 'backups') }),
      db,
      new AppSettings(db),
      new DirectoryBackupStore(path.join(dir, 'backups')),
    );
    backupName = (await backups.backup()).stored.name;
  }, 180_000);
  afterAll(async () => {
    app?.child.kill('SIGKILL');
    await app?.exited;
    await db?.close();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the old data when killed during the swap, and restores on the next try', async () => {
    const inBackup = await tableChecksums(db);
    // The data the restore would replace.
    await db.query(`DELETE FROM playback_history WHERE id % 3 = 0 RETURNING 1`);
    await db.query(`UPDATE items SET name = 'before the restore' RETURNING 1`);
    await db.query(`DELETE FROM play_rollups RETURNING 1`);
    await db.query(`DELETE FROM play_totals RETURNING 1`);
    await db.query(`INSERT INTO play_rollups (server_id, bucket, library_id, play_method, plays, played_seconds)
      SELECT server_id, to_timestamp(floor(extract(epoch FROM started_at) / 900) * 900), COALESCE(library_id, ''), play_method, count(*), sum(played_seconds)
      FROM playback_history GROUP BY 1, 2, 3, 4 RETURNING 1`);
    const before = await tableChecksums(db);
    const shape = await schemaShape(db);

    // A reader that keeps the history table open makes the swap wait at its first rename, inside its
    // transaction (after the media_servers merge): the moment to kill the process, without racing it.
    const reader = new pg.Client({ connectionString: database.url });
    await reader.connect();
    await reader.query('BEGIN');
    await reader.query('SELECT count(*) FROM playback_history');

    const first = await start();
    app = first.started;
    let outcome = 'still running';
    const pending = first.restore().then(
      async (res) => (outcome = `${res.status} ${await res.text()}`),
      () => undefined,
    );
    // Watch PostgreSQL for the swap transaction of the restore, then kill the process outright.
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    const deadline = Date.now() + 240_000;
    let seen = '';
    while (!seen && Date.now() < deadline && outcome === 'still running') {
      const { rows } = await watcher.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE application_name = 'reelstat-restore' AND state = 'active'
           AND wait_event_type = 'Lock' AND query LIKE 'ALTER TABLE public.%SET SCHEMA%'`,
      );
      seen = rows[0]?.query ?? '';
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen, `the restore reached its swap (restore: ${outcome})`).not.toBe('');
    app.child.kill('SIGKILL');
    await app.exited;
    await pending;
    await watcher.end();
    await reader.query('COMMIT');
    await reader.end();

    // Reads wait for the dead session's transaction to be rolled back, then see the previous data.
    expect(await tableChecksums(db)).toEqual(before);

    const second = await start();
    app = second.started;
    // The dead session's restore lock goes with its connection; until PostgreSQL has noticed, a 409 says so.
    let res = await second.restore();
    const retryUntil = Date.now() + 60_000;
    while (res.status === 409 && Date.now() < retryUntil) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      res = await second.restore();
    }
    expect(res.status).toBe(200);
    expect(await tableChecksums(db)).toEqual(inBackup);
    expect(await schemaShape(db)).toEqual(shape);
    expect(await findRollupDifferences(db)).toEqual([]);
  }, 300_000);
});
