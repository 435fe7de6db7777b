import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { analyzeHistory } from './analyze-history.js';
import { recordPlays } from './record-plays.js';
import { ROLLUP_TABLES } from './rollup-sql.js';

/** The statistics an import leaves: every table of the history's, counted as it holds after the writes. */
describe('analysing the history after an import', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const tables = ['playback_history', 'user_last_plays', ...ROLLUP_TABLES];

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    // Thirty plays over thirty days: below autovacuum's threshold for an analyse (50 changed rows), so only the
    // migration's analyse of the empty tables is there before analyzeHistory.
    const plays = Array.from({ length: 30 }, (_, index) => ({
      serverId,
      playKey: `p${index}`,
      source: 'monitor' as const,
      userId: `u${index % 3}`,
      userName: `User ${index % 3}`,
      itemId: `i${index % 7}`,
      itemName: `Item ${index % 7}`,
      libraryId: 'films',
      client: 'Web',
      playMethod: 'DirectPlay' as const,
      startedAt: new Date(Date.now() - (index + 1) * 86_400_000),
      playedSeconds: 600,
    }));
    expect(await recordPlays(db, plays)).toBe(plays.length);
  });
  afterAll(async () => {
    await close();
  });

  /** Tables whose planner row count is not the rows they hold. */
  async function misjudged(): Promise<string[]> {
    const wrong: string[] = [];
    for (const table of tables) {
      const [row] = await db.query<{ rows: number; planned: number }>(
        `SELECT (SELECT count(*)::int FROM ${table}) AS rows, (SELECT reltuples::int FROM pg_class WHERE oid = '${table}'::regclass) AS planned`,
      );
      if (row!.rows !== row!.planned) wrong.push(`${table}: ${row!.planned} planned, ${row!.rows} held`);
    }
    return wrong;
  }

  it('gives every table of the history its row count', async () => {
    expect((await misjudged()).some((line) => line.startsWith('play_rollups_by_library_day_slots:'))).toBe(true);
    await analyzeHistory(db);
    expect(await misjudged()).toEqual([]);
  });
});
