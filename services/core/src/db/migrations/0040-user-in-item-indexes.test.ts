import { describe, expect, it } from 'vitest';
import { recordPlays, type PlayToRecord } from '../../history/record-plays.js';
import { beforeMigration } from '../../test-support/migration-test.js';
import { userInItemIndexes } from './0040-user-in-item-indexes.js';

describe("migration 0040: the item and series indexes carry each play's user and id", () => {
  const setting = beforeMigration(userInItemIndexes);
  const { serverId } = setting;

  it('rebuilds both with the same keys, the user and the id included, and answers a user’s plays of a key from them alone', async () => {
    const db = setting.db();
    const plays: PlayToRecord[] = Array.from({ length: 40 }, (_, i) => ({
      serverId,
      playKey: `p${i}`,
      source: 'monitor',
      userId: `u${i % 3}`,
      userName: `User ${i % 3}`,
      itemId: `i${i % 5}`,
      itemName: `Item ${i % 5}`,
      seriesId: i % 2 === 0 ? `s${i % 4}` : null,
      seriesName: i % 2 === 0 ? `Series ${i % 4}` : null,
      playMethod: 'DirectPlay',
      startedAt: new Date(Date.UTC(2026, 0, 1 + (i % 20), i % 24)),
      playedSeconds: 10 * i,
    }));
    await recordPlays(db, plays);
    await userInItemIndexes.up(setting.context());
    const indexes = await db.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
       WHERE tablename = 'playback_history' AND indexname IN ('history_item_started', 'history_series_started', 'history_item_started_0040') ORDER BY 1`,
    );
    expect(indexes.map(({ name }) => name)).toEqual(['history_item_started', 'history_series_started']);
    expect(indexes[0]!.definition).toMatch(/\(server_id, item_id, started_at DESC\) INCLUDE \(user_id, id\) WITH \(fillfactor='100'\)$/);
    expect(indexes[1]!.definition).toMatch(
      /\(server_id, series_id, started_at DESC\) INCLUDE \(user_id, id\) WITH \(fillfactor='100'\) WHERE \(series_id IS NOT NULL\)$/,
    );
    // Read from the index alone (no table): the ids of one user's plays of one item.
    await db.query('VACUUM (ANALYZE) playback_history');
    const sql = `SELECT id FROM playback_history WHERE server_id = $1 AND item_id = 'i2' AND user_id = 'u1'`;
    const plan = await db.sequelize.transaction(async (transaction) => {
      // 40 plays: the planner would read the table; what matters is that the index alone can answer.
      await db.query('SET LOCAL enable_seqscan = off', [], transaction);
      await db.query('SET LOCAL enable_bitmapscan = off', [], transaction);
      return db.query(`EXPLAIN (FORMAT JSON) ${sql}`, [serverId], transaction);
    });
    expect(JSON.stringify(plan)).toMatch(/"Node Type":"Index Only Scan".*"Index Name":"history_item_started"/);
    const ids = (await db.query<{ id: string }>(sql, [serverId])).map(({ id }) => Number(id));
    const expected = await db.query<{ id: string }>(`SELECT id FROM playback_history WHERE play_key = ANY($1)`, [
      plays.filter((play) => play.itemId === 'i2' && play.userId === 'u1').map((play) => play.playKey),
    ]);
    expect(ids.sort()).toEqual(expected.map(({ id }) => Number(id)).sort());
    expect(ids.length).toBeGreaterThan(0);
    await setting.applyLater();
  });
});
