import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../db/database.js';
import type { MigrationContext } from '../db/migrate.js';
import { migrations, type Migration } from '../db/migrations/index.js';
import { createTestDatabase, testLogger, type TestDatabase } from './test-services.js';
import { addSearchWords, addWriterColumns, allowLibraryValueTotals, removeSearchWords } from './writer-schema.js';
import { statisticsSchema } from '../db/migrations/0004-statistics.js';
import { libraryValueTotals } from '../db/migrations/0039-library-value-totals.js';
import { historySearchTerms } from '../db/migrations/0025-history-search-terms.js';
import { searchWords } from '../db/migrations/0041-search-words.js';

/**
 * The setting of a migration's test: a database of its own with every migration before `migration` applied and
 * one media server, dropped after the file's tests. `writerColumns`: with what today's writer needs on an older
 * schema (writer-schema.ts); play_totals' later scopes are always allowed (allowLibraryValueTotals), and between
 * 0025 and 0041 (neither included) the search's word tables are there until applyLater (addSearchWords).
 */
export function beforeMigration(migration: Migration, options: { writerColumns?: boolean } = {}) {
  let database: TestDatabase;
  let db: Database;
  const withWordsAdded = () => {
    const at = migrations.indexOf(migration);
    return at > migrations.indexOf(historySearchTerms) && at < migrations.indexOf(searchWords);
  };
  const serverId = randomUUID();
  const context = (): MigrationContext => ({
    queryInterface: db.sequelize.getQueryInterface(),
    sql: async (text: string) => void (await db.sequelize.query(text)),
  });
  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url, testLogger);
    for (const earlier of migrations.slice(0, migrations.indexOf(migration))) await earlier.up(context());
    const at = migrations.indexOf(migration);
    if (options.writerColumns) await addWriterColumns(db);
    else if (at > migrations.indexOf(statisticsSchema) && at <= migrations.indexOf(libraryValueTotals)) await allowLibraryValueTotals(db);
    if (withWordsAdded()) await addSearchWords(db);
    await db.query(`INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, 'sim', 'jellyfin', 'http://x', 'x')`, [
      serverId,
    ]);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });
  return {
    serverId,
    /** The open database (from beforeAll on). */
    db: () => db,
    context,
    /** Applies the migrations after `migration` (the schema today's code expects). */
    applyLater: async () => {
      if (withWordsAdded()) await removeSearchWords(db);
      for (const later of migrations.slice(migrations.indexOf(migration) + 1)) await later.up(context());
    },
  };
}
