import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { allUserActivity } from '../stats/scope-queries.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { deletePlays } from './delete-plays.js';
import { writeHistory, type PlayToRecord } from './record-plays.js';
import { findRollupDifferences } from './rollup-invariant.js';
import { REBUILD_ROLLUPS_SQL } from './rollup-sql.js';

/** user_last_plays against the history after inserts (in and out of order), extensions, deletes and a rebuild. */
describe('users last plays', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    await db.query(
      `INSERT INTO media_users (server_id, id, name) VALUES ($1, 'u1', 'Alice'), ($1, 'u2', 'Bob'), ($1, 'u3', 'Carol') RETURNING 1`,
      [serverId],
    );
  });
  afterAll(async () => {
    await close();
  });

  const play = (key: string, userId: string, startedAt: string, overrides: Partial<PlayToRecord> = {}): PlayToRecord => ({
    serverId,
    playKey: key,
    source: 'monitor',
    userId,
    userName: userId,
    itemId: `item-${key}`,
    itemName: `Item ${key}`,
    libraryId: 'films',
    client: `Client ${key}`,
    playMethod: 'DirectPlay',
    startedAt: new Date(startedAt),
    endedAt: new Date(new Date(startedAt).getTime() + 600_000),
    playedSeconds: 600,
    ...overrides,
  });

  /** What the users table showed before the table: each user's newest play, read from the history. */
  const fromHistory = async () =>
    db.query<{ user_id: string; item_id: string | null; item_name: string | null; client: string | null }>(
      `SELECT u.id AS user_id, last.item_id, last.item_name, last.client FROM media_users u
       LEFT JOIN LATERAL (SELECT item_id, item_name, client FROM playback_history h WHERE h.server_id = u.server_id AND h.user_id = u.id
         ORDER BY started_at DESC, id DESC LIMIT 1) AS last ON true
       WHERE u.server_id = $1 ORDER BY u.id`,
      [serverId],
    );

  const expectExact = async () => {
    expect((await findRollupDifferences(db)).filter((d) => d.level === 'user_last_plays')).toEqual([]);
    const shown = (await allUserActivity(db, serverId)).sort((a, b) => a.UserId.localeCompare(b.UserId));
    expect(shown.map((u) => ({ user_id: u.UserId, item_id: u.NowPlayingItemId, item_name: u.LastWatched, client: u.LastClient }))).toEqual(
      await fromHistory(),
    );
  };

  it('takes the newest play of each user from one insert, and an older play written later does not replace it', async () => {
    await writeHistory(db, [
      play('a1', 'u1', '2026-03-01T10:00:00Z'),
      play('a2', 'u1', '2026-03-03T10:00:00Z'),
      play('a3', 'u1', '2026-03-02T10:00:00Z'),
      play('b1', 'u2', '2026-03-01T09:00:00Z'),
    ]);
    await expectExact();
    await writeHistory(db, [play('a0', 'u1', '2026-02-01T10:00:00Z'), play('b2', 'u2', '2026-03-05T09:00:00Z')]);
    await expectExact();
    const [alice] = (await allUserActivity(db, serverId)).filter((u) => u.UserId === 'u1');
    expect(alice).toMatchObject({ NowPlayingItemId: 'item-a2', LastClient: 'Client a2' });
  });

  it('follows extensions of a play, and deletes of a last play, of other plays and of all of a user’s plays', async () => {
    await writeHistory(
      db,
      [play('b2', 'u2', '2026-03-05T09:00:00Z', { endedAt: new Date('2026-03-05T10:00:00Z'), playedSeconds: 3600 })],
      undefined,
      {
        extendOnly: new Set(['b2']),
      },
    );
    await expectExact();
    await deletePlays(db, serverId, `h.play_key = $2`, ['a2']);
    await expectExact();
    const [alice] = (await allUserActivity(db, serverId)).filter((u) => u.UserId === 'u1');
    expect(alice).toMatchObject({ NowPlayingItemId: 'item-a3' });
    await deletePlays(db, serverId, `h.play_key = $2`, ['a0']);
    await expectExact();
    await deletePlays(db, serverId, `h.user_id = $2`, ['u2']);
    await expectExact();
    const [bob] = (await allUserActivity(db, serverId)).filter((u) => u.UserId === 'u2');
    expect(bob).toMatchObject({ NowPlayingItemId: null, LastWatched: null, LastClient: null });
  });

  it('reports a stored row that differs from the history, and REBUILD_ROLLUPS_SQL recounts it', async () => {
    await writeHistory(db, [play('c1', 'u3', '2026-03-04T09:00:00Z'), play('c2', 'u3', '2026-03-04T08:00:00Z')]);
    await db.query(`UPDATE user_last_plays SET client = 'wrong' WHERE server_id = $1 AND user_id = 'u3' RETURNING 1`, [serverId]);
    const differences = (await findRollupDifferences(db)).filter((d) => d.level === 'user_last_plays');
    expect(differences).toEqual([expect.objectContaining({ serverId, key: 'u3' })]);
    await db.query(`DELETE FROM user_last_plays WHERE user_id = 'u1' RETURNING 1`);
    await db.query(REBUILD_ROLLUPS_SQL);
    await expectExact();
  });
});
