import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { jsonValueHash } from './json-values.js';
import { writeHistory, type PlayToRecord } from './record-plays.js';

describe('stream details stored once per distinct value', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
  });
  afterAll(async () => {
    await close();
  });

  const play = (key: string, streamDetails: unknown): PlayToRecord => ({
    serverId,
    playKey: key,
    source: 'monitor',
    userId: `user-${key}`,
    userName: 'User',
    itemId: 'item',
    itemName: 'Item',
    playMethod: 'Transcode',
    streamDetails,
    transcodingInfo: { VideoCodec: 'h264', TranscodeReasons: ['VideoCodecNotSupported'] },
    startedAt: new Date('2026-03-01T20:00:00Z'),
    playedSeconds: 60,
  });

  it('two writers recording the same new value at once store it once and both rows resolve to it', async () => {
    const value = { Source: { VideoCodec: 'hevc' }, Stream: { VideoCodec: 'h264' }, Race: randomUUID() };
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstWrote!: () => void;
    const firstWritten = new Promise<void>((resolve) => (firstWrote = resolve));
    // The first writer inserts the value and keeps its transaction open; the second then writes the same value.
    const first = db.sequelize.transaction(async (transaction) => {
      await writeHistory(db, [play('first', value)], transaction);
      firstWrote();
      await firstHolds;
    });
    await firstWritten;
    const second = db.sequelize.transaction((transaction) => writeHistory(db, [play('second', value)], transaction));
    // The second waits on the first's uncommitted value (the unique hash), and only then does the first commit.
    await waitForLockWait(db);
    releaseFirst();
    await Promise.all([first, second]);

    const rows = await db.query<{ play_key: string; stream_details_id: number | null; value: unknown }>(
      `SELECT play_key, stream_details_id, (SELECT value FROM play_json_values WHERE id = stream_details_id) AS value
       FROM playback_history WHERE play_key IN ('first', 'second') ORDER BY play_key`,
    );
    expect(rows.map((r) => r.value)).toEqual([value, value]);
    expect(rows[0]!.stream_details_id).toBe(rows[1]!.stream_details_id);
    const [stored] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM play_json_values WHERE hash = ${jsonValueHash('$1::jsonb')}`,
      [JSON.stringify(value)],
    );
    expect(stored!.n).toBe(1);
  });

  it('a value already stored is reused (nothing written to the dictionary), and null stays null', async () => {
    const value = { Source: { VideoCodec: 'av1' } };
    await writeHistory(db, [play('a', value), play('b', value), play('c', null)]);
    const [before] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM play_json_values');
    await writeHistory(db, [play('d', { ...value })]);
    const [after] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM play_json_values');
    expect(after!.n).toBe(before!.n);
    const rows = await db.query<{ play_key: string; stream_details_id: number | null }>(
      `SELECT play_key, stream_details_id FROM playback_history WHERE play_key IN ('a', 'b', 'c', 'd') ORDER BY play_key`,
    );
    expect(rows[2]!.stream_details_id).toBeNull();
    expect(new Set([rows[0], rows[1], rows[3]].map((r) => r!.stream_details_id)).size).toBe(1);
  });
});

/** Until some backend waits on a lock (the second writer behind the first's uncommitted value). */
async function waitForLockWait(db: Database): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%play_json_values%'`,
    );
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the second writer never waited on the first');
}
