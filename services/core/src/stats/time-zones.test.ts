import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { recordPlays, type PlayToRecord } from '../history/record-plays.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import { deletePlaybackActivity } from '../library/purge.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { topLibraries } from './card-queries.js';
import { viewsChart } from './chart-queries.js';
import { globalStats } from './scope-queries.js';

/**
 * Day, weekday and hour buckets across DST changes and in +05:30 / +05:45 zones. Expected figures are worked
 * out by hand in the comments (2026-03-29 and 2026-10-25 are the European DST Sundays; 2026-10-11 is a Sunday).
 * Played seconds are powers of two, so every sum names exactly the plays it contains.
 */
describe('statistics buckets in time zones', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const play = (key: string, startedAt: string, playedSeconds: number, extra: Partial<PlayToRecord> = {}): PlayToRecord => ({
    serverId,
    playKey: key,
    source: 'monitor',
    userId: 'u1',
    userName: 'Alice',
    itemId: `item-${key}`,
    itemName: `Film ${key}`,
    itemType: 'Movie',
    libraryId: 'lib',
    client: 'Jellyfin Web',
    playMethod: 'DirectPlay',
    startedAt: new Date(startedAt),
    playedSeconds,
    ...extra,
  });
  // Long enough to reach back to 2026-03-28 from today, whatever today is.
  const days = Math.ceil((Date.now() - Date.parse('2026-03-28T00:00:00Z')) / 86_400_000) + 2;

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    await db.query(`INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'lib', 'Films', 'movies')`, [serverId]);
    const plays = [
      play('D1', '2026-03-29T00:30:00Z', 100), // London 00:30 GMT Sun 29 Mar; Paris 01:30 CET; Kolkata 06:00
      play('D2', '2026-03-29T01:30:00Z', 200), // London 02:30 BST (01:00-02:00 does not exist); Paris 03:30 CEST; Kolkata 07:00
      play('D3', '2026-03-28T23:30:00Z', 400), // London 23:30 GMT Sat 28 Mar; Paris 00:30 CET Sun 29 Mar; Kolkata 05:00 Sun
      play('D4', '2026-10-25T00:30:00Z', 800), // London 01:30 BST Sun 25 Oct; Paris 02:30 CEST; Kolkata 06:00
      play('D5', '2026-10-25T01:30:00Z', 1600), // London 01:30 GMT (the hour that happens twice); Paris 02:30 CET; Kolkata 07:00
      play('K1', '2026-10-10T18:45:00Z', 3200), // Kolkata 00:15 Sun 11 Oct; Kathmandu 00:30 Sun 11 Oct; London 19:45 BST Sat
      play('K2', '2026-10-10T18:15:00Z', 6400), // Kolkata 23:45 Sat 10 Oct; Kathmandu 00:00 Sun 11 Oct; London 19:15 BST Sat
    ];
    expect(await recordPlays(db, plays)).toBe(7);
    // Recording the same plays again changes nothing.
    expect(await recordPlays(db, plays)).toBe(0);
  });
  afterAll(async () => {
    await close();
  });

  const cells = async (tz: string, kind: 'day' | 'weekday' | 'hour') => {
    const chart = await viewsChart(db, serverId, tz, days, kind);
    expect(chart.libraries).toEqual([{ Id: 'lib', Name: 'Films' }]);
    const nonEmpty: Record<string, [number, number]> = {};
    for (const row of chart.stats) {
      // Rows are keyed by library Name, as the incumbent's charts read them (the libraries list keeps the Id).
      const cell = row.Films as { count: number; duration: number };
      if (cell.count > 0) nonEmpty[row.Key] = [cell.count, cell.duration];
    }
    return { nonEmpty, keys: chart.stats.map((row) => row.Key) };
  };

  it('buckets days and hours in Europe/London across both DST changes', async () => {
    expect((await cells('Europe/London', 'day')).nonEmpty).toEqual({
      '2026-03-28': [1, 400],
      '2026-03-29': [2, 300],
      '2026-10-10': [2, 9600],
      '2026-10-25': [2, 2400],
    });
    expect((await cells('Europe/London', 'hour')).nonEmpty).toEqual({
      '00': [1, 100],
      '01': [2, 2400],
      '02': [1, 200],
      '19': [2, 9600],
      '23': [1, 400],
    });
    expect((await cells('Europe/London', 'weekday')).nonEmpty).toEqual({ Saturday: [3, 10_000], Sunday: [4, 2700] });
  });

  it('moves the same plays to other buckets in Europe/Paris', async () => {
    expect((await cells('Europe/Paris', 'day')).nonEmpty).toEqual({
      '2026-03-29': [3, 700],
      '2026-10-10': [2, 9600],
      '2026-10-25': [2, 2400],
    });
    expect((await cells('Europe/Paris', 'hour')).nonEmpty).toEqual({
      '00': [1, 400],
      '01': [1, 100],
      '02': [2, 2400],
      '03': [1, 200],
      '20': [2, 9600],
    });
  });

  it('handles the +05:30 and +05:45 offsets exactly', async () => {
    expect((await cells('Asia/Kolkata', 'day')).nonEmpty).toEqual({
      '2026-03-29': [3, 700],
      '2026-10-10': [1, 6400],
      '2026-10-11': [1, 3200],
      '2026-10-25': [2, 2400],
    });
    expect((await cells('Asia/Kolkata', 'hour')).nonEmpty).toEqual({
      '00': [1, 3200],
      '05': [1, 400],
      '06': [2, 900],
      '07': [2, 1800],
      '23': [1, 6400],
    });
    expect((await cells('Asia/Kolkata', 'weekday')).nonEmpty).toEqual({ Saturday: [1, 6400], Sunday: [6, 6300] });
    expect((await cells('Asia/Kathmandu', 'day')).nonEmpty['2026-10-11']).toEqual([2, 9600]);
  });

  it('lists every day of the window once, the 25-hour day included, and weekdays and hours in order', async () => {
    const { keys } = await cells('Europe/London', 'day');
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('2026-03-28');
    // Consecutive calendar days, DST days included, ending today in London.
    for (let index = 1; index < keys.length; index += 1) {
      expect(Date.parse(`${keys[index]}T00:00:00Z`) - Date.parse(`${keys[index - 1]}T00:00:00Z`)).toBe(86_400_000);
    }
    expect(keys[keys.length - 1]).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date()));
    expect(keys).toHaveLength(days + 1);
    expect(keys.filter((key) => key === '2026-10-25')).toHaveLength(1);
    expect((await cells('UTC', 'weekday')).keys).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
    expect((await cells('UTC', 'hour')).keys).toEqual(Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0')));
  });

  it('keeps buckets exact after plays are deleted', async () => {
    const [row] = await db.query<{ id: number }>(`SELECT id FROM playback_history WHERE play_key = 'D5'`);
    expect(await deletePlaybackActivity(db, serverId, [row!.id])).toBe(1);
    expect((await cells('Europe/London', 'hour')).nonEmpty['01']).toEqual([1, 800]);
    expect((await cells('Europe/London', 'day')).nonEmpty['2026-10-25']).toEqual([1, 800]);
    expect(await globalStats(db, serverId, 'user', 'u1', 9999 * 24)).toEqual({ Plays: 6, total_playback_duration: 11_100 });
    expect(await findRollupDifferences(db)).toEqual([]);
    await recordPlays(db, [play('D5', '2026-10-25T01:30:00Z', 1600)]);
    expect((await cells('Europe/London', 'hour')).nonEmpty['01']).toEqual([2, 2400]);
  });

  it('sums day windows exactly from whole UTC days, quarter hours and the history together', async () => {
    // Kolkata's midnight is 18:30 UTC: a 1-day window starts at 18:30 UTC 24 to 48 hours ago. Plays just before
    // it, inside it before the next UTC midnight (quarter hours), after that midnight (daily rows) and now.
    const kolkataMidnight = (daysAgo: number) => {
      const localToday = new Date(Date.now() + 5.5 * 3_600_000);
      return Date.UTC(localToday.getUTCFullYear(), localToday.getUTCMonth(), localToday.getUTCDate() - daysAgo) - 5.5 * 3_600_000;
    };
    const start = kolkataMidnight(1);
    const firstUtcMidnight = Math.ceil(start / 86_400_000) * 86_400_000;
    const at = (ms: number) => new Date(ms).toISOString();
    const edge = { libraryId: 'daily-edge' };
    await recordPlays(db, [
      play('day-out', at(start - 60_000), 1, edge),
      play('day-first-quarter', at(start + 5 * 60_000), 2, edge),
      play('day-quarters', at(start + 4 * 3_600_000), 4, edge),
      play('day-daily', at(firstUtcMidnight + 60_000), 8, edge),
      play('day-now', at(Date.now() - 60_000), 16, edge),
    ]);
    const row = (await topLibraries(db, serverId, 'Asia/Kolkata', 1)).find((library) => library.Id === 'daily-edge');
    expect(row).toMatchObject({ Plays: 4, total_playback_duration: 30 });
    const daily = await db.query<{ plays: number }>(
      `SELECT sum(plays)::int AS plays FROM play_rollups_daily WHERE server_id = $1 AND library_id = 'daily-edge'`,
      [serverId],
    );
    expect(daily[0]!.plays).toBe(5);
  });

  it('keeps the daily rollups equal to the quarter hours through writes, deletes and purges', async () => {
    const mismatches = () =>
      db.query(
        `SELECT * FROM (
           SELECT server_id, to_timestamp(floor(extract(epoch FROM bucket) / 86400) * 86400) AS bucket, library_id, play_method,
             sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds
           FROM play_rollups GROUP BY 1, 2, 3, 4
         ) AS q FULL JOIN play_rollups_daily d USING (server_id, bucket, library_id, play_method)
         WHERE q.plays IS DISTINCT FROM d.plays OR q.played_seconds IS DISTINCT FROM d.played_seconds`,
      );
    expect(await mismatches()).toEqual([]);
    const [row] = await db.query<{ id: number }>(`SELECT id FROM playback_history WHERE play_key = 'K1'`);
    expect(await deletePlaybackActivity(db, serverId, [row!.id])).toBe(1);
    await recordPlays(db, [play('K1', '2026-10-10T18:45:00Z', 3200), play('K1b', '2026-10-10T18:50:00Z', 5)]);
    expect(await mismatches()).toEqual([]);
    const other = randomUUID();
    await db.query(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, 'other', 'jellyfin', 'http://y', 'v1.x')`,
      [other],
    );
    await recordPlays(db, [{ ...play('O1', '2026-10-10T18:45:00Z', 9), serverId: other }]);
    await db.query(`DELETE FROM media_servers WHERE id = $1`, [other]);
    expect(await mismatches()).toEqual([]);
    expect(await findRollupDifferences(db)).toEqual([]);
  });

  it('cuts an hours window inside a quarter hour exactly', async () => {
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    await recordPlays(db, [
      play('edge-in', at(24 * 60 - 5), 7, { libraryId: 'edge' }),
      play('edge-out', at(24 * 60 + 5), 11, { libraryId: 'edge' }),
      play('edge-recent', at(30), 13, { libraryId: 'edge' }),
    ]);
    expect(await globalStats(db, serverId, 'library', 'edge', 24)).toEqual({ Plays: 2, total_playback_duration: 20 });
    expect(await globalStats(db, serverId, 'library', 'edge', 48)).toEqual({ Plays: 3, total_playback_duration: 31 });
    expect(await globalStats(db, serverId, 'library', 'edge', 9999 * 24)).toEqual({ Plays: 3, total_playback_duration: 31 });
  });
});
