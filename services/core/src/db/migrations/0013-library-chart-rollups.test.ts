import { describe, expect, it } from 'vitest';
import { recordPlays, type PlayToRecord } from '../../history/record-plays.js';
import { findRollupDifferences } from '../../history/rollup-invariant.js';
import { beforeMigration } from '../../test-support/migration-test.js';
import { libraryChartRollups } from './0013-library-chart-rollups.js';
import { removeWriterColumns } from '../../test-support/writer-schema.js';

describe('migration 0013: library rollups for the charts', () => {
  const setting = beforeMigration(libraryChartRollups, { writerColumns: true });
  const { serverId, context } = setting;

  const play = (key: string, startedAt: string, libraryId: string | null, client: string, seconds: number): PlayToRecord => ({
    serverId,
    playKey: key,
    source: 'monitor',
    userId: 'u1',
    userName: 'Alice',
    itemId: `i-${key}`,
    itemName: 'Item',
    libraryId,
    client,
    playMethod: 'DirectPlay',
    startedAt: new Date(startedAt),
    playedSeconds: seconds,
  });

  it('backfills both levels from the existing rollups, and writes after it keep them exact', async () => {
    const db = setting.db();
    await recordPlays(db, [
      play('a', '2026-05-01T10:05:00Z', 'movies', 'Web', 100),
      play('b', '2026-05-01T10:50:00Z', 'movies', 'TV', 200),
      play('c', '2026-05-01T10:55:00Z', null, 'TV', 400),
      play('d', '2026-05-01T11:00:00Z', 'shows', 'Web', 800),
    ]);
    await libraryChartRollups.up(context());
    // The invariant check covers the latest schema's levels.
    await removeWriterColumns(db);
    await setting.applyLater();
    expect(await findRollupDifferences(db)).toEqual([]);
    const hourly = await db.query<{ bucket: string; library_id: string; plays: number; played_seconds: number }>(
      `SELECT to_char(bucket AT TIME ZONE 'UTC', 'HH24:MI') AS bucket, library_id, plays, played_seconds::int AS played_seconds
       FROM play_rollups_by_library_hourly ORDER BY 1, 2`,
    );
    expect(hourly).toEqual([
      { bucket: '10:00', library_id: '', plays: 1, played_seconds: 400 },
      { bucket: '10:00', library_id: 'movies', plays: 2, played_seconds: 300 },
      { bucket: '11:00', library_id: 'shows', plays: 1, played_seconds: 800 },
    ]);
    await recordPlays(db, [play('e', '2026-05-01T10:20:00Z', 'movies', 'Web', 1600)]);
    expect(await findRollupDifferences(db)).toEqual([]);
  });
});
