import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/database.js';
import { recordPlays } from './history/record-plays.js';
import { collectSqlCatalog } from './test-support/sql-catalog.js';
import { createHistoryTestDatabase } from './test-support/test-services.js';

const SQL_DIR = fileURLToPath(new URL('../sql/', import.meta.url));

function checkedIn(): Map<string, string> {
  const files = new Map<string, string>();
  for (const domain of readdirSync(SQL_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const file of readdirSync(path.join(SQL_DIR, domain.name)).filter((name) => name.endsWith('.sql'))) {
      files.set(`${domain.name}/${file.replace(/\.sql$/, '')}`, readFileSync(path.join(SQL_DIR, domain.name, file), 'utf8'));
    }
  }
  return files;
}

/**
 * The SQL catalog (services/core/sql/, see test-support/sql-catalog.ts) is the final SQL of every statistics,
 * history and library query, and of the sync, account, API key, settings, task and activity repositories. This test regenerates it and fails when a statement changed without its file.
 * `npm run sql` (SQL_CATALOG_WRITE=1) rewrites the files instead.
 */
describe('SQL catalog', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    // A little of everything, so every branch that depends on rows (folding runs, grouping) sends its SQL.
    await db.query(`INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'films', 'Films', 'movies')`, [serverId]);
    await db.query(`INSERT INTO media_users (server_id, id, name) VALUES ($1, 'u1', 'Alice')`, [serverId]);
    await db.query(
      `INSERT INTO items (server_id, id, library_id, type, name, parent_id, series_id, date_created) VALUES
         ($1, 'm1', 'films', 'Movie', 'Film', 'films', NULL, now()),
         ($1, 's1', 'films', 'Series', 'Show', 'films', NULL, now()),
         ($1, 'e1', 'films', 'Episode', 'Pilot', 's1', 's1', now())`,
      [serverId],
    );
    await recordPlays(db, [
      {
        serverId,
        playKey: 'p1',
        source: 'monitor',
        userId: 'u1',
        userName: 'Alice',
        itemId: 'm1',
        itemName: 'Film',
        itemType: 'Movie',
        libraryId: 'films',
        client: 'Jellyfin Web',
        playMethod: 'DirectPlay',
        startedAt: new Date(Date.now() - 3_600_000),
        playedSeconds: 600,
      },
    ]);
  });
  afterAll(async () => {
    await close();
  });

  it('matches the checked-in .sql files (npm run sql rewrites them)', async () => {
    const generated = await collectSqlCatalog(db, serverId);
    if (process.env.SQL_CATALOG_WRITE === '1') {
      rmSync(SQL_DIR, { recursive: true, force: true });
      for (const [name, sql] of generated) {
        mkdirSync(path.dirname(path.join(SQL_DIR, name)), { recursive: true });
        writeFileSync(path.join(SQL_DIR, `${name}.sql`), sql);
      }
    }
    const files = checkedIn();
    expect([...files.keys()].sort(), 'the catalog lists other queries than services/core/sql/ (npm run sql)').toEqual(
      [...generated.keys()].sort(),
    );
    for (const [name, sql] of generated) expect(files.get(name), `services/core/sql/${name}.sql is out of date (npm run sql)`).toBe(sql);
  });
});
