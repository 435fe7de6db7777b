import pg from 'pg';
import { Umzug, SequelizeStorage } from 'umzug';
import type { QueryInterface } from 'sequelize';
import type { Database } from './database.js';
import type { Logger } from '../logging/logger.js';
import { migrations } from './migrations/index.js';

/** Any fixed 64-bit number unique to "Reelstat migrations"; every replica uses the same one. */
const MIGRATION_LOCK_KEY = 7_246_118_001;

export interface MigrationContext {
  queryInterface: QueryInterface;
  /** Runs SQL text that may contain several statements. */
  sql(text: string): Promise<void>;
}

/**
 * Applies pending migrations. A PostgreSQL advisory lock, held on its own connection for the whole run,
 * makes replicas that start together wait for each other instead of racing; the one that waited then finds
 * nothing left to do. Each migration runs in its own transaction.
 */
export async function migrateToLatest(db: Database, logger: Logger): Promise<string[]> {
  const lockClient = new pg.Client({ connectionString: db.url, application_name: 'reelstat-migrate-lock' });
  await lockClient.connect();
  try {
    await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const umzug = new Umzug<MigrationContext>({
      migrations: migrations.map((migration) => ({
        name: migration.name,
        up: async ({ context }) => {
          await db.sequelize.transaction(async (transaction) => {
            await migration.up({
              queryInterface: context.queryInterface,
              sql: async (text) => {
                await db.sequelize.query(text, { transaction });
              },
            });
          });
        },
      })),
      context: { queryInterface: db.sequelize.getQueryInterface(), sql: async () => undefined },
      storage: new SequelizeStorage({ sequelize: db.sequelize, tableName: 'schema_migrations' }),
      logger: undefined,
    });
    const applied = await umzug.up();
    if (applied.length) {
      logger.info({ migrations: applied.map((m) => m.name) }, 'database migrated');
      await gatherPlannerStatistics(db, logger);
    }
    return applied.map((m) => m.name);
  } finally {
    await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockClient.end();
  }
}

/**
 * A migration that creates or refills a table leaves it without planner statistics until autovacuum's next look
 * (a minute or more after the start, longer on a busy server). Meanwhile the planner guesses: right after 0037 at
 * 5 M plays the 365-day day chart took 90 ms instead of 10 (docs/performance.md, "Issue 20 on main after the fourth
 * session's merges"). One ANALYZE of the database (2.4-3.8 s at 5 M plays) gives every table its statistics before
 * the first request; it runs while the migration lock is held, so replicas waiting for it start with them too.
 */
async function gatherPlannerStatistics(db: Database, logger: Logger): Promise<void> {
  const started = Date.now();
  await db.query('ANALYZE');
  logger.info({ ms: Date.now() - started }, 'planner statistics gathered after migrating');
}

export async function pendingMigrationCount(db: Database): Promise<number> {
  const rows = await db.query<{ name: string }>('SELECT name FROM schema_migrations').catch(() => [] as { name: string }[]);
  const applied = new Set(rows.map((row) => row.name));
  return migrations.filter((migration) => !applied.has(migration.name)).length;
}
