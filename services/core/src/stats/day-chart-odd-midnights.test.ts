import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { recordPlays, type PlayToRecord } from '../history/record-plays.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { viewsChart } from './chart-queries.js';

/**
 * A zone whose midnight is not on a quarter hour: Monrovia kept -0:44:30 until 1972, so its midnights were at
 * 00:44:30 UTC, and the plays between the quarter (00:30) and the midnight come from the history, not the day
 * slots (stats/day-chart-sql.ts, the `prefix` rows). Compared with the plays' local days as JavaScript gives them.
 */
/** A window back to 1971 (9,999 days reach only 1999): a chart's days may be any number from ALL_TIME_DAYS up. */
const WINDOW_DAYS = 21_000;

describe('day charts where the midnight is not on a quarter hour', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const plays: PlayToRecord[] = [];
  const times = ['00:20', '00:31', '00:44', '00:45', '00:50', '12:00', '23:59'];

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    await db.query(`INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'a', 'A', 'movies')`, [serverId]);
    const starts = [
      ...['1971-06-09', '1971-06-10', '1971-12-31'].flatMap((day) => times.map((time) => `${day}T${time}:00Z`)),
      ...[3, 2, 1].map((daysAgo) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()),
    ];
    starts.forEach((at, index) =>
      plays.push({
        serverId,
        playKey: `p${index}`,
        source: 'monitor',
        userId: 'u1',
        userName: 'Alice',
        itemId: `i${index}`,
        itemName: 'Item',
        libraryId: 'a',
        client: 'Web',
        playMethod: 'DirectPlay',
        startedAt: new Date(at),
        playedSeconds: 10 + index,
      }),
    );
    expect(await recordPlays(db, plays)).toBe(plays.length);
  });
  afterAll(async () => {
    await close();
  });

  function expected(tz: string, kind: 'day' | 'weekday'): Record<string, [number, number]> {
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    const weekday = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'long' });
    const cells: Record<string, [number, number]> = {};
    for (const p of plays) {
      const cell = (cells[kind === 'day' ? local.format(p.startedAt) : weekday.format(p.startedAt)] ??= [0, 0]);
      cell[0] += 1;
      cell[1] += p.playedSeconds;
    }
    return cells;
  }

  async function charted(tz: string, kind: 'day' | 'weekday'): Promise<Record<string, [number, number]>> {
    const cells: Record<string, [number, number]> = {};
    for (const row of (await viewsChart(db, serverId, tz, WINDOW_DAYS, kind)).stats) {
      const cell = row['A'] as { count: number; duration: number };
      if (cell.count > 0) cells[row.Key] = [cell.count, cell.duration];
    }
    return cells;
  }

  it.each(['Africa/Monrovia', 'UTC'])('charts 21,000 days by day and weekday in %s exactly', async (tz) => {
    expect(await charted(tz, 'day')).toEqual(expected(tz, 'day'));
    expect(await charted(tz, 'weekday')).toEqual(expected(tz, 'weekday'));
  });

  it('puts the plays between the quarter and the midnight on the day before', async () => {
    const days = await charted('Africa/Monrovia', 'day');
    // 00:20, 00:31 and 00:44 UTC on 9 June are 8 June in Monrovia; on 10 June they join 9 June's 00:45 and later.
    expect(days['1971-06-08']?.[0]).toBe(3);
    expect(days['1971-06-09']?.[0]).toBe(7);
  });
});
