import { describe, expect, it } from 'vitest';
import { recordPlays, type PlayToRecord } from '../../history/record-plays.js';
import { deletePlays } from '../../history/delete-plays.js';
import { findRollupDifferences } from '../../history/rollup-invariant.js';
import { beforeMigration } from '../../test-support/migration-test.js';
import { libraryValueTotals } from './0039-library-value-totals.js';

describe('migration 0039: the plays of each client and device within each library', () => {
  const setting = beforeMigration(libraryValueTotals);
  const { serverId } = setting;

  it('backfills them from the history, exact, and writers keep them so; other scopes are still refused', async () => {
    const db = setting.db();
    // Library ids and clients that would meet under a plain separator: `a:b` + `c` and `a` + `b:c`.
    const libraries = ['a:b', 'a', null];
    const clients = [
      ['c', 'Jellyfin Web'],
      ['b:c', 'Kodi'],
      [null, 'Kodi'],
    ];
    const plays: PlayToRecord[] = Array.from({ length: 60 }, (_, i) => ({
      serverId,
      playKey: `p${i}`,
      source: 'monitor',
      userId: `u${i % 4}`,
      userName: `User ${i % 4}`,
      itemId: `i${i % 9}`,
      itemName: `Item ${i % 9}`,
      libraryId: libraries[i % 3],
      client: clients[i % 3]![i % 2],
      deviceName: i % 5 === 0 ? null : `Device ${i % 4}`,
      playMethod: 'DirectPlay',
      startedAt: new Date(Date.UTC(2026, 0, 1 + (i % 20), i % 24)),
      playedSeconds: 10 * i,
    }));
    await recordPlays(db, plays);
    // As a history written before 0039: none of its rows.
    await db.query(`DELETE FROM play_totals WHERE scope IN ('library_client', 'library_device')`);
    await libraryValueTotals.up(setting.context());
    expect(await findRollupDifferences(db, serverId)).toEqual([]);
    const [keys] = await db.query<{ clients: number; devices: number }>(
      `SELECT count(*) FILTER (WHERE scope = 'library_client')::int AS clients, count(*) FILTER (WHERE scope = 'library_device')::int AS devices
       FROM play_totals WHERE server_id = $1`,
      [serverId],
    );
    // One row per library and value (plays outside a library have none), none shared.
    const [expected] = await db.query<{ clients: number; devices: number }>(
      `SELECT count(DISTINCT (library_id, client)) FILTER (WHERE client IS NOT NULL)::int AS clients,
         count(DISTINCT (library_id, device_name)) FILTER (WHERE device_name IS NOT NULL)::int AS devices
       FROM playback_history WHERE server_id = $1 AND library_id IS NOT NULL`,
      [serverId],
    );
    expect(keys).toEqual(expected);

    await setting.applyLater();
    await recordPlays(db, [{ ...plays[1]!, playKey: 'later', startedAt: new Date('2026-02-01T00:00:00Z') }]);
    await deletePlays(db, serverId, `h.play_key = ANY($2)`, [['p4', 'p7']]);
    expect(await findRollupDifferences(db, serverId)).toEqual([]);
    await expect(db.query(`INSERT INTO play_totals (server_id, scope, key) VALUES ($1, 'client', 'x')`, [serverId])).rejects.toThrow(
      /play_totals_scope_check/,
    );
  });
});
