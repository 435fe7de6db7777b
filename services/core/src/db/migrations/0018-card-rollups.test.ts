import { describe, expect, it } from 'vitest';
import { deletePlays } from '../../history/delete-plays.js';
import { recordPlays, type PlayToRecord } from '../../history/record-plays.js';
import { findRollupDifferences } from '../../history/rollup-invariant.js';
import { beforeMigration } from '../../test-support/migration-test.js';
import { cardRollups } from './0018-card-rollups.js';
import { removeWriterColumns } from '../../test-support/writer-schema.js';

describe('migration 0018: rollups for the cards', () => {
  const setting = beforeMigration(cardRollups, { writerColumns: true });
  const { serverId, context } = setting;

  const play = (key: string, startedAt: string, itemType: string, seconds: number): PlayToRecord => ({
    serverId,
    playKey: key,
    source: 'monitor',
    userId: 'u1',
    userName: 'Alice',
    itemId: `i-${key}`,
    itemName: 'Item',
    itemType,
    seriesId: itemType === 'Episode' ? 'show' : null,
    playMethod: 'DirectPlay',
    startedAt: new Date(startedAt),
    playedSeconds: seconds,
  });

  it('backfills days, months and all time from the history, and later writes and deletes keep them exact', async () => {
    const db = setting.db();
    await recordPlays(db, [
      play('a', '2026-04-30T23:59:00Z', 'Movie', 100),
      play('b', '2026-05-01T00:01:00Z', 'Episode', 200),
      play('c', '2026-05-02T10:00:00Z', 'Episode', 400),
      play('d', '2026-05-02T11:00:00Z', 'Audio', 800),
    ]);
    await cardRollups.up(context());
    // The invariant checks every level of the current schema: the later migrations backfill theirs (0020, 0021).
    // The writer's columns go back to 0018's shape first, for 0022 to convert them as it converts a real database.
    await removeWriterColumns(db);
    await setting.applyLater();
    expect(await findRollupDifferences(db)).toEqual([]);
    const rows = await db.query<{ row: string }>(
      `SELECT concat_ws(' ', kind, span, to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD'), key, plays, played_seconds) AS row
       FROM play_card_rollups WHERE kind IN ('Series', 'user') ORDER BY kind, span, bucket, key`,
    );
    expect(rows.map((r) => r.row)).toEqual([
      'Series all 1970-01-01 show 2 600',
      'Series day 2026-05-01 show 1 200',
      'Series day 2026-05-02 show 1 400',
      'Series month 2026-05-01 show 2 600',
      'user all 1970-01-01 u1 4 1500',
      'user day 2026-04-30 u1 1 100',
      'user day 2026-05-01 u1 1 200',
      'user day 2026-05-02 u1 2 1200',
      'user month 2026-04-01 u1 1 100',
      'user month 2026-05-01 u1 3 1400',
    ]);
    await recordPlays(db, [play('e', '2026-05-03T10:00:00Z', 'Episode', 1600)]);
    expect(await deletePlays(db, serverId, `h.play_key = 'a'`, [])).toBe(1);
    expect(await findRollupDifferences(db)).toEqual([]);
  });
});
