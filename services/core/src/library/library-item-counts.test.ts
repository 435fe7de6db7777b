import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { OWN_ENTRY } from './library-item-counts.js';
import { forgetLibraryContent, libraryCards, libraryMetadata, libraryOverview } from './library-queries.js';
import { purgeItem, purgeLibrary } from './purge.js';

/**
 * library_item_counts against a count over items after every kind of write to items (the writers' SQL shapes:
 * sync's upsert, archive and unarchive, moves between libraries, purges, a server's cascade, TRUNCATE).
 */
describe('library item counts', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const otherServer = randomUUID();

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    await db.query(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, 'other', 'jellyfin', 'http://y', 'v1.x') RETURNING 1`,
      [otherServer],
    );
    for (const server of [serverId, otherServer]) {
      await db.query(
        `INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'films', 'Films', 'movies'), ($1, 'shows', 'Shows', 'tvshows'),
           ($1, 'music', 'Music', 'music') RETURNING 1`,
        [server],
      );
    }
  });
  afterAll(async () => {
    await close();
  });

  /** The figures as the readers computed them before the table: a count over the items that are not archived. */
  const countedFromItems = async (server: string) =>
    db.query<{ id: string; entries: number; seasons: number; episodes: number; files: number; size: number; runtime_ticks: number }>(
      `SELECT l.id, count(i.*) FILTER (WHERE i.${OWN_ENTRY})::int AS entries, count(*) FILTER (WHERE i.type = 'Season')::int AS seasons,
         count(*) FILTER (WHERE i.type = 'Episode')::int AS episodes,
         count(*) FILTER (WHERE i.path IS NOT NULL AND i.size IS NOT NULL)::int AS files, COALESCE(sum(i.size), 0)::bigint AS size,
         COALESCE(sum(i.run_time_ticks) FILTER (WHERE i.type NOT IN ('Series', 'Season', 'MusicAlbum', 'MusicArtist')), 0)::bigint AS runtime_ticks
       FROM libraries l LEFT JOIN items i ON i.server_id = l.server_id AND i.library_id = l.id AND NOT i.archived
       WHERE l.server_id = $1 GROUP BY l.id ORDER BY l.id`,
      [server],
    );

  const expectExact = async () => {
    expect((await findRollupDifferences(db)).filter((d) => d.level === 'library_items')).toEqual([]);
    for (const server of [serverId, otherServer]) {
      forgetLibraryContent();
      const expected = await countedFromItems(server);
      const cards = (await libraryCards(db, server)).sort((a, b) => a.Id.localeCompare(b.Id));
      expect(
        cards.map((c) => ({ id: c.Id, entries: c.Library_Count, seasons: c.Season_Count, episodes: c.Episode_Count, files: c.files })),
      ).toEqual(expected.map((e) => ({ id: e.id, entries: e.entries, seasons: e.seasons, episodes: e.episodes, files: e.files })));
      expect(cards.map((c) => [Number(c.Size), Number(c.total_play_time)])).toEqual(
        expected.map((e) => [Number(e.size), Number(e.runtime_ticks)]),
      );
      const overview = (await libraryOverview(db, server)).sort((a, b) => a.Id.localeCompare(b.Id));
      expect(overview.map((o) => [o.Id, o.Library_Count, o.Season_Count, o.Episode_Count])).toEqual(
        expected.map((e) => [e.id, e.entries, e.seasons, e.episodes]),
      );
      const metadata = (await libraryMetadata(db, server)).sort((a, b) => a.Id.localeCompare(b.Id));
      expect(metadata.map((m) => [m.Id, m.files, Number(m.Size)])).toEqual(expected.map((e) => [e.id, e.files, Number(e.size)]));
    }
  };

  const upsert = (server: string, rows: string) =>
    db.query(
      `INSERT INTO items (server_id, id, library_id, type, name, series_id, season_id, run_time_ticks, size, path, archived)
       SELECT $1::uuid, v.id, v.library_id, v.type, v.id, v.series_id, v.season_id, v.ticks, v.size, v.path, v.archived
       FROM (VALUES ${rows}) AS v(id, library_id, type, series_id, season_id, ticks, size, path, archived)
       ON CONFLICT (server_id, id) DO UPDATE SET library_id = EXCLUDED.library_id, type = EXCLUDED.type, run_time_ticks = EXCLUDED.run_time_ticks,
         size = EXCLUDED.size, path = EXCLUDED.path, archived = EXCLUDED.archived
       RETURNING 1`,
      [server],
    );

  const firstSync = `
    ('m1', 'films', 'Movie', NULL, NULL, 72000000000::bigint, 4000000000::bigint, '/m/1.mkv', false),
    ('m2', 'films', 'Movie', NULL, NULL, 54000000000, 3000000000, '/m/2.mkv', false),
    ('m3', 'films', 'Movie', NULL, NULL, 60000000000, NULL, '/m/3.mkv', false),
    ('f1', 'films', 'Folder', NULL, NULL, NULL, NULL, NULL, false),
    ('s1', 'shows', 'Series', NULL, NULL, 99000000000, NULL, NULL, false),
    ('s1-1', 'shows', 'Season', 's1', NULL, 88000000000, NULL, NULL, false),
    ('e1', 'shows', 'Episode', 's1', 's1-1', 27000000000, 900000000, '/s/e1.mkv', false),
    ('e2', 'shows', 'Episode', 's1', 's1-1', 27000000000, 800000000, '/s/e2.mkv', false),
    ('e3', 'shows', 'Episode', 's1', 's1-1', 27000000000, 700000000, '/s/e3.mkv', true),
    ('a1', 'music', 'MusicAlbum', NULL, NULL, 30000000000, NULL, NULL, false),
    ('t1', 'music', 'Audio', NULL, NULL, 2000000000, 5000000, '/a/t1.flac', false),
    ('x1', NULL, 'Movie', NULL, NULL, 1000, 1000, '/x.mkv', false)`;

  it('counts a first sync (one insert statement, archived items and items outside a library left out)', async () => {
    await upsert(serverId, firstSync);
    await upsert(otherServer, firstSync);
    await expectExact();
    const [films] = await db.query<{ entries: number }>(
      `SELECT entries::int FROM library_item_counts WHERE server_id = $1 AND library_id = 'films'`,
      [serverId],
    );
    expect(films!.entries).toBe(3);
  });

  it('follows upserts that change, add, archive, unarchive and move items, and updates that change nothing', async () => {
    await upsert(
      serverId,
      `('m1', 'films', 'Movie', NULL, NULL, 72000000000::bigint, 4100000000::bigint, '/m/1.mkv', false),
       ('m2', 'films', 'Movie', NULL, NULL, 54000000000, 3000000000, '/m/2.mkv', true),
       ('e3', 'shows', 'Episode', 's1', 's1-1', 27000000000, 700000000, '/s/e3.mkv', false),
       ('m4', 'films', 'Movie', NULL, NULL, 66000000000, 1000000000, '/m/4.mkv', false),
       ('t1', 'films', 'Audio', NULL, NULL, 2000000000, 5000000, '/a/t1.flac', false),
       ('x1', 'music', 'Movie', NULL, NULL, 1000, 1000, '/x.mkv', false)`,
    );
    await expectExact();
    await db.query(`UPDATE items SET name = name || ' (again)' WHERE server_id = $1 RETURNING 1`, [serverId]);
    await db.query(`UPDATE items SET archived = true, archived_at = now() WHERE server_id = $1 AND library_id = 'shows' RETURNING 1`, [
      serverId,
    ]);
    await expectExact();
    await db.query(`UPDATE items SET archived = false, archived_at = NULL WHERE server_id = $1 AND id IN ('s1', 'e1') RETURNING 1`, [
      serverId,
    ]);
    await db.query(`UPDATE items SET library_id = NULL WHERE server_id = $1 AND id = 'm3' RETURNING 1`, [serverId]);
    await expectExact();
  });

  it('follows purges of an item (with its children) and of a library, and a server removed by its cascade', async () => {
    await purgeItem(db, serverId, 's1', false);
    await expectExact();
    await purgeLibrary(db, serverId, 'films', { withActivity: false, keepLibrary: true });
    await expectExact();
    await db.query(`DELETE FROM media_servers WHERE id = $1 RETURNING 1`, [otherServer]);
    expect((await findRollupDifferences(db)).filter((d) => d.level === 'library_items')).toEqual([]);
    const [left] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM library_item_counts WHERE server_id = $1 AND (entries <> 0 OR seasons <> 0 OR episodes <> 0 OR files <> 0 OR size <> 0 OR runtime_ticks <> 0)`,
      [otherServer],
    );
    expect(left!.n).toBe(0);
  });

  it('reports a stored figure that differs from the items, and TRUNCATE empties the table', async () => {
    await db.query(`UPDATE library_item_counts SET files = files + 1 WHERE server_id = $1 AND library_id = 'music' RETURNING 1`, [
      serverId,
    ]);
    const differences = (await findRollupDifferences(db)).filter((d) => d.level === 'library_items');
    expect(differences).toEqual([expect.objectContaining({ serverId, key: 'music files', expectedPlays: 1, storedPlays: 2 })]);
    await db.query(`TRUNCATE items CASCADE`);
    const [rows] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM library_item_counts`);
    expect(rows!.n).toBe(0);
    await expectExact();
  });
});
