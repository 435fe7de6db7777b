import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../database.js';
import { recordPlays, type PlayToRecord } from '../../history/record-plays.js';
import { findRollupDifferences } from '../../history/rollup-invariant.js';
import { createTestDatabase, testLogger, type TestDatabase } from '../../test-support/test-services.js';
import { historyAtPlayEnd } from './0007-history-at-play-end.js';
import { migrations } from './index.js';
import { addWriterColumns, removeWriterColumns } from '../../test-support/writer-schema.js';

describe('migration 0007: Emby rows rewritten once', () => {
  let database: TestDatabase;
  let db: Database;
  const emby = randomUUID();
  const jellyfin = randomUUID();
  const context = () => ({
    queryInterface: db.sequelize.getQueryInterface(),
    sql: async (text: string) => void (await db.sequelize.query(text)),
  });
  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url, testLogger);
    for (const migration of migrations.slice(0, migrations.indexOf(historyAtPlayEnd))) await migration.up(context());
    await addWriterColumns(db);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('stores DirectPlay of non-Jellyfin servers as DirectStream, moving their rollups, and leaves Jellyfin alone', async () => {
    // Both servers start as Jellyfin so the rows are written as reported, as before the rule moved to the writer.
    for (const id of [emby, jellyfin]) {
      await db.query(`INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, $2, 'jellyfin', 'http://x', 'x')`, [
        id,
        id.slice(0, 8),
      ]);
    }
    const play = (serverId: string, key: string, playMethod: PlayToRecord['playMethod'], seconds: number): PlayToRecord => ({
      serverId,
      playKey: key,
      source: 'monitor',
      userId: 'u1',
      userName: 'Alice',
      itemId: 'm1',
      itemName: 'Heat',
      libraryId: 'movies',
      client: 'Emby Web',
      playMethod,
      startedAt: new Date('2026-02-01T20:05:00Z'),
      playedSeconds: seconds,
    });
    await recordPlays(db, [
      play(emby, 'a', 'DirectPlay', 100),
      play(emby, 'b', 'DirectStream', 10),
      play(emby, 'c', 'Transcode', 1),
      play(jellyfin, 'd', 'DirectPlay', 1000),
    ]);
    await db.query(`UPDATE media_servers SET kind = 'emby' WHERE id = $1`, [emby]);

    await historyAtPlayEnd.up(context());

    const methods = await db.query<{ server_id: string; play_key: string; play_method: string }>(
      'SELECT server_id, play_key, play_method FROM playback_history ORDER BY play_key',
    );
    expect(methods.map((r) => [r.play_key, r.play_method])).toEqual([
      ['a', 'DirectStream'],
      ['b', 'DirectStream'],
      ['c', 'Transcode'],
      ['d', 'DirectPlay'],
    ]);
    const rollups = await db.query<{ play_method: string; plays: number; played_seconds: number }>(
      `SELECT play_method, plays, played_seconds::int AS played_seconds FROM play_rollups WHERE server_id = $1 ORDER BY play_method`,
      [emby],
    );
    expect(rollups).toEqual([
      { play_method: 'DirectStream', plays: 2, played_seconds: 110 },
      { play_method: 'Transcode', plays: 1, played_seconds: 1 },
    ]);
    // The invariant's check reads every rollup level of the current schema: apply the migrations after 0007 first.
    await removeWriterColumns(db);
    for (const migration of migrations.slice(migrations.indexOf(historyAtPlayEnd) + 1)) await migration.up(context());
    expect(await findRollupDifferences(db)).toEqual([]);
    const [column] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'live_sessions' AND column_name = 'recorded_seconds'`,
    );
    expect(column!.n).toBe(1);
  });
});
