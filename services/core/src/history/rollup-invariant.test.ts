import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import type { TestDatabase } from '../test-support/test-services.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { writeHistory, type PlayToRecord } from './record-plays.js';
import { findRollupDifferences } from './rollup-invariant.js';
import { REBUILD_ROLLUPS_SQL, ROLLUP_TABLES } from './rollup-sql.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('the rollup invariant', () => {
  let db: Database;
  let database: TestDatabase;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  beforeAll(async () => {
    ({ db, database, close } = await createHistoryTestDatabase(serverId));
  });
  afterAll(async () => {
    await close();
  });

  const play = (key: string, overrides: Partial<PlayToRecord> = {}): PlayToRecord => ({
    serverId,
    playKey: key,
    source: 'monitor',
    userId: 'u1',
    userName: 'Alice',
    itemId: 'e1',
    itemName: 'Pilot',
    seriesId: 's1',
    seasonId: 's1-1',
    libraryId: 'shows',
    client: 'Jellyfin Web',
    playMethod: 'DirectPlay',
    startedAt: new Date('2026-03-01T23:50:00Z'),
    endedAt: new Date('2026-03-02T00:20:00Z'),
    playedSeconds: 1200,
    ...overrides,
  });

  const checkRollups = () =>
    promisify(execFile)('npm', ['run', '--silent', 'check:rollups', '--', '--database-url', database.url], { cwd: ROOT }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );

  it('holds through inserts and extensions, and an extension adds only the difference', async () => {
    const first = await writeHistory(db, [play('p1'), play('p2', { userId: 'u2', playedSeconds: 50 })]);
    expect(first.inserted.map((p) => p.playKey)).toEqual(['p1', 'p2']);
    const again = await writeHistory(db, [play('p1')]);
    expect(again).toEqual({ inserted: [], extended: [] });
    const extended = await writeHistory(db, [play('p1', { endedAt: new Date('2026-03-02T00:40:00Z'), playedSeconds: 2400 })], undefined, {
      extendOnly: new Set(['p1']),
    });
    expect(extended.extended.map((p) => [p.playKey, p.playedSeconds])).toEqual([['p1', 2400]]);
    // An older end never shortens a row (a stale writer after a failover).
    expect(await writeHistory(db, [play('p1', { playedSeconds: 100 })])).toEqual({ inserted: [], extended: [] });
    // An extension of a row that is gone inserts nothing.
    expect(await writeHistory(db, [play('gone')], undefined, { extendOnly: new Set(['gone']) })).toEqual({ inserted: [], extended: [] });

    const totals = await db.query<{ scope: string; key: string; plays: number; played_seconds: number }>(
      `SELECT scope, key, plays, played_seconds::int AS played_seconds FROM play_totals WHERE server_id = $1 ORDER BY scope, key`,
      [serverId],
    );
    expect(totals).toEqual([
      { scope: 'item', key: 'e1', plays: 2, played_seconds: 2450 },
      { scope: 'item', key: 's1', plays: 2, played_seconds: 2450 },
      { scope: 'item', key: 's1-1', plays: 2, played_seconds: 2450 },
      { scope: 'library', key: 'shows', plays: 2, played_seconds: 2450 },
      { scope: 'library_client', key: '5:shows:Jellyfin Web', plays: 2, played_seconds: 2450 },
      { scope: 'user', key: 'u1', plays: 1, played_seconds: 2400 },
      { scope: 'user', key: 'u2', plays: 1, played_seconds: 50 },
    ]);
    expect(await findRollupDifferences(db)).toEqual([]);
    expect(await checkRollups()).toEqual({ code: 0, stdout: 'rollups: 0 differences\n' });
  });

  it('reports a difference at every level it finds one, and check:rollups fails on it', async () => {
    await db.query(`UPDATE play_rollups SET played_seconds = played_seconds + 7 WHERE server_id = $1 AND play_method = 'DirectPlay'`, [
      serverId,
    ]);
    await db.query(`UPDATE play_totals SET plays = plays + 1 WHERE server_id = $1 AND scope = 'user' AND key = 'u2'`, [serverId]);
    const differences = await findRollupDifferences(db, serverId);
    expect(differences).toEqual([
      expect.objectContaining({
        level: 'daily',
        key: '2026-03-01 shows DirectPlay',
        expectedSeconds: 2450,
        storedSeconds: 2457,
      }),
      // The charts' library levels follow play_rollups through its triggers, so they carry the error too.
      // Both plays start at 23:50, in the day's last quarter hour: slot 96 (the whole day) alone holds them.
      expect.objectContaining({ level: 'library_day_slots', key: '2026-03-01 96 shows', expectedSeconds: 2450, storedSeconds: 2457 }),
      expect.objectContaining({ level: 'library_hourly', key: '2026-03-01T23:00Z shows', expectedSeconds: 2450, storedSeconds: 2457 }),
      // The method months follow the daily level through its triggers.
      expect.objectContaining({
        level: 'library_method_month',
        key: '2026-03 shows DirectPlay',
        expectedSeconds: 2450,
        storedSeconds: 2457,
      }),
      expect.objectContaining({ level: 'library_month_quarter', key: '2026-03 95 shows', expectedSeconds: 2450, storedSeconds: 2457 }),
      expect.objectContaining({ level: 'library_quarter_hour', key: '2026-03-01T23:45Z shows', storedSeconds: 2457 }),
      expect.objectContaining({ level: 'quarter_hour', key: '2026-03-01T23:45Z shows DirectPlay', storedSeconds: 2457 }),
      expect.objectContaining({ level: 'totals', key: 'user u2', expectedPlays: 1, storedPlays: 2 }),
    ]);
    const { code, stdout } = await checkRollups();
    expect(code).toBe(1);
    expect(stdout).toContain('rollups: 8 differences');
    await db.query(`UPDATE play_rollups SET played_seconds = played_seconds - 7 WHERE server_id = $1 AND play_method = 'DirectPlay'`, [
      serverId,
    ]);
    await db.query(`UPDATE play_totals SET plays = plays - 1 WHERE server_id = $1 AND scope = 'user' AND key = 'u2'`, [serverId]);
    expect(await findRollupDifferences(db)).toEqual([]);
  });

  it('checks each library level on its own', async () => {
    await db.query(`UPDATE play_rollups_by_library_hourly SET plays = plays + 2 WHERE server_id = $1`, [serverId]);
    await db.query(
      `INSERT INTO play_rollups_by_library (server_id, bucket, library_id, plays, played_seconds) VALUES ($1, '2026-01-01T23:45Z', 'x', 1, 9)`,
      [serverId],
    );
    expect(await findRollupDifferences(db, serverId)).toEqual([
      // The month and day-slot levels follow the quarter hours through their triggers, so they carry the stray row too.
      expect.objectContaining({ level: 'library_day_slots', key: '2026-01-01 96 x', expectedPlays: 0, storedPlays: 1 }),
      expect.objectContaining({ level: 'library_hourly', key: '2026-03-01T23:00Z shows', expectedPlays: 2, storedPlays: 4 }),
      expect.objectContaining({ level: 'library_month_quarter', key: '2026-01 95 x', expectedPlays: 0, storedPlays: 1 }),
      expect.objectContaining({ level: 'library_quarter_hour', key: '2026-01-01T23:45Z x', expectedPlays: 0, storedPlays: 1 }),
    ]);
    await db.query(`UPDATE play_rollups_by_library_hourly SET plays = plays - 2 WHERE server_id = $1`, [serverId]);
    await db.query(`DELETE FROM play_rollups_by_library WHERE server_id = $1 AND library_id = 'x'`, [serverId]);
    expect(await findRollupDifferences(db)).toEqual([]);
    await db.query(
      `UPDATE play_rollups_by_library_month_quarter SET played_seconds = played_seconds + 5 WHERE server_id = $1 AND library_id = 'shows'`,
      [serverId],
    );
    await db.query(`INSERT INTO play_card_viewer_counts (server_id, kind, key, viewers) VALUES ($1, 'Movie', 'stray', 1)`, [serverId]);
    // A wrong slot inside a day (the day's total right) and a wrong total.
    await db.query(
      `UPDATE play_rollups_by_library_day_slots SET plays[40] = plays[40] + 1, played_seconds[96] = played_seconds[96] - 3
       WHERE server_id = $1 AND library_id = 'shows'`,
      [serverId],
    );
    await db.query(`UPDATE play_rollups_by_library_method_month SET plays = plays + 1 WHERE server_id = $1 AND library_id = 'shows'`, [
      serverId,
    ]);
    expect(await findRollupDifferences(db, serverId)).toEqual([
      expect.objectContaining({ level: 'card_viewer_counts', key: 'Movie stray', expectedPlays: 0, storedPlays: 1 }),
      expect.objectContaining({ level: 'library_day_slots', key: '2026-03-01 40 shows', expectedPlays: 0, storedPlays: 1 }),
      expect.objectContaining({ level: 'library_day_slots', key: '2026-03-01 96 shows', expectedSeconds: 2450, storedSeconds: 2447 }),
      expect.objectContaining({ level: 'library_method_month', key: '2026-03 shows DirectPlay', expectedPlays: 2, storedPlays: 3 }),
      expect.objectContaining({ level: 'library_month_quarter', key: '2026-03 95 shows', expectedSeconds: 2450, storedSeconds: 2455 }),
    ]);
    await db.query(`UPDATE play_rollups_by_library_method_month SET plays = plays - 1 WHERE server_id = $1 AND library_id = 'shows'`, [
      serverId,
    ]);
    await db.query(
      `UPDATE play_rollups_by_library_month_quarter SET played_seconds = played_seconds - 5 WHERE server_id = $1 AND library_id = 'shows'`,
      [serverId],
    );
    await db.query(`DELETE FROM play_card_viewer_counts WHERE server_id = $1 AND key = 'stray'`, [serverId]);
    await db.query(
      `UPDATE play_rollups_by_library_day_slots SET plays[40] = plays[40] - 1, played_seconds[96] = played_seconds[96] + 3
       WHERE server_id = $1 AND library_id = 'shows'`,
      [serverId],
    );
    expect(await findRollupDifferences(db)).toEqual([]);
  });

  it('checks the search words against the terms', async () => {
    await writeHistory(db, [play('w1', { itemId: 'w-item', itemName: 'Storm  over Storm', seriesId: null, seriesName: 'Storm Chasers' })]);
    expect(await findRollupDifferences(db, serverId)).toEqual([]);
    const words = await db.query<{ word: string; kind: string; sure: boolean }>(
      `SELECT word, kind, sure FROM history_search_word_keys WHERE server_id = $1 AND key = 'w-item' ORDER BY 1, 2`,
      [serverId],
    );
    // The empty word between the two spaces is not a word; 'storm' is one row however often it comes.
    expect(words).toEqual([
      { word: 'chasers', kind: 'series_item', sure: true },
      { word: 'over', kind: 'item', sure: true },
      { word: 'storm', kind: 'item', sure: true },
      { word: 'storm', kind: 'series_item', sure: true },
    ]);
    await db.query(`BEGIN`);
    try {
      await db.query(`DELETE FROM history_search_word_keys WHERE server_id = $1 AND word = 'over' AND kind = 'item'`, [serverId]);
      await db.query(`INSERT INTO history_search_words (server_id, word) VALUES ($1, 'stray')`, [serverId]);
      await db.query(`UPDATE history_search_terms SET sure = false WHERE server_id = $1 AND key = 'w-item' AND kind = 'series_item'`, [
        serverId,
      ]);
      const differences = await findRollupDifferences(db, serverId);
      expect(differences.map(({ level, key }) => `${level} ${key}`)).toEqual([
        'search_word_keys chasers series_item w-item',
        'search_word_keys over item w-item',
        'search_word_keys storm series_item w-item',
        'search_words stray',
      ]);
    } finally {
      await db.query(`ROLLBACK`);
    }
  });

  it('REBUILD_ROLLUPS_SQL rebuilds every level from the history, the derived ones included', async () => {
    // The search's words have no counts: a word changed, a flag set that no term gives.
    const corruptions: Record<string, string> = {
      play_card_viewer_counts: 'viewers = viewers + 3',
      play_rollups_by_library_day_slots: 'plays[96] = plays[96] + 3',
      history_search_word_keys: 'sure = true',
      history_search_words: `word = word || 'x'`,
    };
    for (const table of ROLLUP_TABLES) await db.query(`UPDATE ${table} SET ${corruptions[table] ?? 'plays = plays + 3'}`);
    expect((await findRollupDifferences(db)).length).toBeGreaterThan(0);
    await db.query(REBUILD_ROLLUPS_SQL);
    expect(await findRollupDifferences(db)).toEqual([]);
  });
});
