import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { recordPlays, type PlayToRecord } from './record-plays.js';

describe('recordPlays', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
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
    itemId: 'm1',
    itemName: 'Heat',
    libraryId: 'lib-movies',
    client: 'Jellyfin Web',
    playMethod: 'DirectPlay',
    startedAt: new Date('2026-03-01T22:30:00Z'),
    endedAt: new Date('2026-03-01T23:30:00Z'),
    playedSeconds: 3000.4,
    pausedSeconds: 600,
    ...overrides,
  });

  it('writes history and rollups together, and skips plays it already has', async () => {
    expect(
      await recordPlays(db, [
        play('a'),
        play('b', { playedSeconds: 100 }),
        play('c', { startedAt: new Date('2026-03-02T01:00:00Z'), playedSeconds: 50 }),
      ]),
    ).toBe(3);
    expect(await recordPlays(db, [play('a'), play('b'), play('d', { playMethod: 'Transcode', playedSeconds: 10 })])).toBe(1);

    const history = await db.query<{ play_key: string; played_seconds: number; paused_seconds: number }>(
      'SELECT play_key, played_seconds, paused_seconds FROM playback_history ORDER BY play_key',
    );
    expect(history).toEqual([
      { play_key: 'a', played_seconds: 3000, paused_seconds: 600 },
      { play_key: 'b', played_seconds: 100, paused_seconds: 600 },
      { play_key: 'c', played_seconds: 50, paused_seconds: 600 },
      { play_key: 'd', played_seconds: 10, paused_seconds: 600 },
    ]);
    // a, b and d started at 22:30 UTC (one quarter hour), c at 01:00 UTC the next day.
    const rollups = await db.query<{ bucket: string; play_method: string; plays: number; played_seconds: number }>(
      `SELECT to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS bucket, play_method, plays, played_seconds
       FROM play_rollups ORDER BY bucket, play_method`,
    );
    expect(rollups).toEqual([
      { bucket: '2026-03-01 22:30', play_method: 'DirectPlay', plays: 2, played_seconds: 3100 },
      { bucket: '2026-03-01 22:30', play_method: 'Transcode', plays: 1, played_seconds: 10 },
      { bucket: '2026-03-02 01:00', play_method: 'DirectPlay', plays: 1, played_seconds: 50 },
    ]);
    const totals = await db.query<{ scope: string; key: string; plays: number; played_seconds: number }>(
      'SELECT scope, key, plays, played_seconds FROM play_totals ORDER BY scope, key',
    );
    expect(totals).toEqual([
      { scope: 'item', key: 'm1', plays: 4, played_seconds: 3160 },
      { scope: 'library', key: 'lib-movies', plays: 4, played_seconds: 3160 },
      // The library's client (0039), keyed by the library id's length, the id and the client; no device given.
      { scope: 'library_client', key: '10:lib-movies:Jellyfin Web', plays: 4, played_seconds: 3160 },
      { scope: 'user', key: 'u1', plays: 4, played_seconds: 3160 },
    ]);
  });

  it('is atomic with the caller transaction', async () => {
    await expect(
      db.sequelize.transaction(async (transaction) => {
        await recordPlays(db, [play('rolled-back')], transaction);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const rows = await db.query(`SELECT 1 FROM playback_history WHERE play_key = 'rolled-back'`);
    expect(rows).toEqual([]);
  });
});
