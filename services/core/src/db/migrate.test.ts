import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';
import { migrateToLatest, pendingMigrationCount } from './migrate.js';
import { migrations } from './migrations/index.js';
import { createTestDatabase, testLogger, type TestDatabase } from '../test-support/test-services.js';

describe('migrations', () => {
  let database: TestDatabase;
  const opened: Database[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await database.drop();
  });
  const open = () => {
    const db = openDatabase(database.url, testLogger, { poolMax: 3 });
    opened.push(db);
    return db;
  };

  it('apply from empty when several replicas start at once, each migration exactly once', async () => {
    // Separate pools and sessions, exactly as separate processes would have.
    const replicas = [open(), open(), open()];
    const applied = await Promise.all(replicas.map((db) => migrateToLatest(db, testLogger)));
    const all = applied.flat();
    expect(all.sort()).toEqual(migrations.map((m) => m.name).sort());
    const [db] = replicas;
    const recorded = await db!.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(recorded.map((row) => row.name)).toEqual(migrations.map((m) => m.name));
    expect(await pendingMigrationCount(db!)).toBe(0);
  });

  it('leaves every table with planner statistics (ANALYZE after migrating), not waiting for autovacuum', async () => {
    // reltuples is -1 for a table never analysed nor vacuumed: the planner would guess its size and contents.
    const unanalysed = await open().query<{ relname: string }>(
      `SELECT c.relname::text AS relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.reltuples < 0 ORDER BY 1`,
    );
    expect(unanalysed.map((row) => row.relname)).toEqual([]);
  });

  it('creates every table the product needs, with server_id on media tables', async () => {
    const db = open();
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name::text AS table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    const names = tables.map((row) => row.table_name);
    for (const expected of [
      'media_servers',
      'app_settings',
      'admin_accounts',
      'media_users',
      'libraries',
      'items',
      'media_sources',
      'media_streams',
      'item_genres',
      'playback_history',
      'live_sessions',
      'play_rollups',
      'api_keys',
      'webhooks',
      'webhook_deliveries',
      'task_runs',
      'task_run_logs',
      'backups',
    ]) {
      expect(names).toContain(expected);
    }
    const withServer = await db.query<{ table_name: string }>(
      `SELECT DISTINCT table_name::text AS table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'server_id'`,
    );
    const mediaTables = [
      'media_users',
      'libraries',
      'items',
      'media_sources',
      'media_streams',
      'item_genres',
      'playback_history',
      'live_sessions',
      'play_rollups',
    ];
    expect(withServer.map((row) => row.table_name)).toEqual(expect.arrayContaining(mediaTables));
  });

  it('indexes the history for the dashboard filters and sorts', async () => {
    const db = open();
    const indexes = await db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'playback_history'`,
    );
    const definitions = indexes.map((row) => row.indexdef).join('\n');
    // 0023 dropped the (…, started_at DESC) twins of these covering indexes: a b-tree reads backwards as well.
    expect(definitions).toMatch(/\(server_id, started_at, id\) INCLUDE/);
    expect(definitions).toMatch(/\(server_id, user_id, started_at, id\) INCLUDE/);
    expect(definitions).toMatch(/\(server_id, library_id, started_at, id\)/);
    expect(definitions).toMatch(/\(server_id, item_id, started_at DESC\)/);
    expect(definitions).toMatch(/UNIQUE.*\(server_id, play_key\)/);
  });

  it('is a no-op when up to date', async () => {
    expect(await migrateToLatest(open(), testLogger)).toEqual([]);
  });
});
