import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { waitFor } from '../test-support/test-kit.js';
import { EXPORT_BATCH_ROWS, openHistoryExport } from './history-csv.js';

/** The export's cursor: batches pulled one at a time, and a connection closed as soon as the reader stops. */
describe('history export cursor', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const plays = EXPORT_BATCH_ROWS * 2 + 5;

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    await db.query(
      `INSERT INTO playback_history (server_id, play_key, user_id, user_name, item_id, item_name, started_at, played_seconds)
       SELECT $1, 'p' || n, 'u1', 'Alice', 'm' || (n % 7), 'Film ' || (n % 7), now() - n * interval '1 minute', n
       FROM generate_series(1, $2::int) AS n`,
      [serverId, plays],
    );
  });
  afterAll(async () => {
    await close();
  });

  const exportConnections = async () =>
    (
      await db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = 'reelstat-export' AND datname = current_database()`,
      )
    )[0]!.count;
  const request = { scope: { kind: 'all' } as const, filters: {}, search: '', sort: 'PlaybackDuration' as const, desc: false };

  it('yields the header, then one batch of lines per pull, in the view order', async () => {
    const lines = await openHistoryExport(db, [serverId], request);
    const header = await lines.next();
    expect(header.value).toMatch(/^Id,Date,/);
    const first = await lines.next();
    const rows = (first.value as string).trimEnd().split('\r\n');
    expect(rows).toHaveLength(EXPORT_BATCH_ROWS);
    // Sorted by playback duration ascending: 1, 2, 3 … seconds.
    expect(rows.slice(0, 3).map((row) => Number(row.split(',').at(-1)))).toEqual([1, 2, 3]);
    let total = rows.length;
    for await (const batch of lines) total += batch.trimEnd().split('\r\n').length;
    expect(total).toBe(plays);
    await waitFor('the export connection to close', async () => (await exportConnections()) === 0);
  });

  it('closes its cursor and connection when the reader stops early (a cancelled download)', async () => {
    const lines = await openHistoryExport(db, [serverId], request);
    await lines.next();
    await lines.next();
    expect(await exportConnections()).toBe(1);
    await lines.return(undefined);
    await waitFor('the export connection to close', async () => (await exportConnections()) === 0);
  });

  it('an export of no server is the header alone', async () => {
    const chunks: string[] = [];
    for await (const chunk of await openHistoryExport(db, [], request, { bom: true })) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.startsWith('\uFEFFId,')).toBe(true);
  });
});
