import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { loadConfig, type AppConfig } from '../config/load-config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { waitFor } from './test-kit.js';

/** A logger for tests: silent unless TEST_LOG_LEVEL is set. */
export const testLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the test PostgreSQL, so that test files never see each other's rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `reelstat_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A fresh, migrated database with one linked media server of this id, for tests of history and statistics. */
export async function createHistoryTestDatabase(
  serverId: string,
): Promise<{ database: TestDatabase; db: Database; close(): Promise<void> }> {
  const database = await createTestDatabase();
  const db = openDatabase(database.url, testLogger);
  await migrateToLatest(db, testLogger);
  await db.query(`INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, 'sim', 'jellyfin', 'http://x', 'v1.x')`, [
    serverId,
  ]);
  return {
    database,
    db,
    async close() {
      await db.close();
      await database.drop();
    },
  };
}

/** The test Redis (shared by all files: use uniqueRedisPrefix()). */
export function testRedisUrl(): string {
  return inject('redisUrl');
}

/** A Redis key prefix unique to one test, so parallel test files never share queues or channels. */
export function uniqueRedisPrefix(): string {
  return `reelstat-test-${randomBytes(4).toString('hex')}`;
}

/** A configuration as a test process would load it, with overrides. */
export function testConfig(overrides: Record<string, string | undefined> = {}): AppConfig {
  return loadConfig(
    {},
    {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/reelstat-test-data',
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
      ...overrides,
    },
  );
}

/** Polls a condition (sync or async) until it holds; fails with a clear message after timeoutMs (test-kit's waitFor). */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, intervalMs = 25): Promise<void> {
  await waitFor('a condition', condition, { timeoutMs, intervalMs });
}
