import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testLogger, type TestDatabase } from '../test-support/test-services.js';
import { openDatabase, type Database } from './database.js';

/** What every pooled connection sets when it starts (database.ts). */
describe('the pooled connections’ session settings', () => {
  let testDatabase: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    db = openDatabase(testDatabase.url, testLogger);
  });
  afterAll(async () => {
    await db.close();
    await testDatabase.drop();
  });

  it('turns JIT compilation off and bounds a statement at a minute, on every connection of the pool', async () => {
    // Several at once, so that more than one connection answers.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        db.query<{ jit: string; timeout: string; pid: number }>(
          `SELECT current_setting('jit') AS jit, current_setting('statement_timeout') AS timeout, pg_backend_pid() AS pid, pg_sleep(0.05)::text`,
        ),
      ),
    );
    const rows = answers.map(([row]) => row!);
    expect(new Set(rows.map((row) => row.pid)).size).toBeGreaterThan(1);
    expect(rows.map((row) => [row.jit, row.timeout])).toEqual(rows.map(() => ['off', '1min']));
  });
});
