import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testLogger, type TestDatabase } from '../test-support/test-services.js';
import { openDatabase, type Database } from './database.js';

/** Database.rows: the pool's connections without Sequelize's per-row copy (database.ts). */
describe('reading many rows past Sequelize', () => {
  let testDatabase: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    db = openDatabase(testDatabase.url, testLogger, { poolMax: 2 });
  });
  afterAll(async () => {
    await db.close();
    await testDatabase.drop();
  });

  it('answers the rows db.query answers, bigints and nulls as the same values', async () => {
    const sql = `SELECT n, (n * 10000000000)::bigint AS big, CASE WHEN n % 2 = 0 THEN NULL ELSE n::text END AS odd, $1::text AS tag
      FROM generate_series(1, 5000) AS n`;
    const [viaRows, viaQuery] = await Promise.all([db.rows(sql, ['x']), db.query(sql, ['x'])]);
    expect(viaRows).toHaveLength(5000);
    expect(viaRows).toEqual(viaQuery);
    expect(viaRows[2]).toEqual({ n: 3, big: 30_000_000_000, odd: '3', tag: 'x' });
  });

  it('uses the pooled connections’ session settings', async () => {
    const [row] = await db.rows<{ jit: string; timeout: string }>(
      `SELECT current_setting('jit') AS jit, current_setting('statement_timeout') AS timeout`,
    );
    expect(row).toEqual({ jit: 'off', timeout: '1min' });
  });

  it('gives its connection back after a failed statement, so the pool is never drained', async () => {
    // Twice the pool's size of failures, then reads: a connection kept by a failure would leave none.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await expect(db.rows('SELECT 1 / 0')).rejects.toThrow(/division by zero/);
    }
    const answers = await Promise.all(Array.from({ length: 4 }, (_, index) => db.rows<{ n: number }>('SELECT $1::int AS n', [index])));
    expect(answers.map(([row]) => row!.n)).toEqual([0, 1, 2, 3]);
  });
});
