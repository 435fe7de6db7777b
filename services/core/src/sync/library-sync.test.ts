import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '@reelstat/jellyfin-sim';
import type { Database } from '../db/database.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import type { TestDatabase } from '../test-support/test-services.js';
import { LibrarySync } from './library-sync.js';
import { clientFor } from './sync-context.js';
import { linkSimulator, recordingReporter, syncTestDatabase } from './sync-test-helpers.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

describe.each(['jellyfin', 'emby'] as const)('library sync against the %s simulator', (flavor) => {
  let sim: Simulator;
  let database: TestDatabase;
  let db: Database;
  let link: MediaServerLink;
  const sync = (l = link) => new LibrarySync(db, l, clientFor(l), recordingReporter(), { pageSize: 50, listPageSize: 80 });
  const countByType = async (serverId: string) =>
    Object.fromEntries(
      (
        await db.query<{ type: string; n: number }>(
          'SELECT type, count(*)::int AS n FROM items WHERE server_id = $1 AND NOT archived GROUP BY type',
          [serverId],
        )
      ).map((r) => [r.type, r.n]),
    );
  /** library_item_counts (kept by items' triggers) against a count over items. */
  const expectLibraryCountsExact = async () =>
    expect((await findRollupDifferences(db)).filter((d) => d.level === 'library_items')).toEqual([]);
  const item = async (id: string) =>
    (await db.query<Record<string, unknown>>('SELECT * FROM items WHERE server_id = $1 AND id = $2', [link.id, id]))[0];

  beforeAll(async () => {
    sim = await startSimulator({ flavor, scale: 'tiny', seed: 3 });
    ({ database, db } = await syncTestDatabase());
    link = await linkSimulator(db, sim, flavor);
  });
  afterAll(async () => {
    await sim.stop();
    await db.close();
    await database.drop();
  });

  it('mirrors users, libraries and every item with counts per type and per library equal to the server', async () => {
    const summary = await sync().full();
    await expectLibraryCountsExact();
    const counts = sim.control.counts();
    expect(await countByType(link.id)).toEqual({
      Movie: counts.movies,
      Series: counts.series,
      Season: counts.seasons,
      Episode: counts.episodes,
      MusicArtist: counts.artists,
      MusicAlbum: counts.albums,
      Audio: counts.tracks,
    });
    expect(summary.itemsWritten).toBe(
      counts.movies + counts.series + counts.seasons + counts.episodes + counts.artists + counts.albums + counts.tracks,
    );
    const [users] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM media_users WHERE server_id = $1', [link.id]);
    expect(users!.n).toBe(counts.users);

    // Libraries: boxsets and playlists ignored; per-library totals equal the server's.
    const libraries = await db.query<{
      id: string;
      name: string;
      collection_type: string;
      item_count: number;
      season_count: number;
      episode_count: number;
      file_count: number;
      total_size: number;
    }>('SELECT * FROM libraries WHERE server_id = $1 ORDER BY name', [link.id]);
    expect(libraries.map((l) => l.collection_type).sort()).toEqual(['mixed', 'movies', 'music', 'tvshows']);
    const client = clientFor(link);
    for (const library of libraries) {
      let serverTotal = 0;
      for await (const page of client.iterateItems({ parentId: library.id, fields: [] }, { pageSize: 1 })) {
        serverTotal = page.totalRecordCount;
        break;
      }
      const [stored] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE server_id = $1 AND library_id = $2', [
        link.id,
        library.id,
      ]);
      expect({ library: library.name, n: stored!.n }).toEqual({ library: library.name, n: serverTotal });
    }
    const shows = libraries.find((l) => l.collection_type === 'tvshows')!;
    const showSeries = await db.query<{ type: string; n: number }>(
      `SELECT type, count(*)::int AS n FROM items WHERE server_id = $1 AND library_id = $2 GROUP BY type`,
      [link.id, shows.id],
    );
    const byType = Object.fromEntries(showSeries.map((r) => [r.type, r.n]));
    expect([shows.item_count, shows.season_count, shows.episode_count]).toEqual([byType.Series, byType.Season, byType.Episode]);
    expect(shows.file_count).toBe(byType.Episode);
    expect(shows.total_size).toBeGreaterThan(0);
  });

  it('stores runtime, size, streams and genres as the server has them (sampled items)', async () => {
    const client = clientFor(link);
    const ids = [...sim.control.itemIds('Movie', 3), ...sim.control.itemIds('Episode', 3), ...sim.control.itemIds('Audio', 2)];
    const dtos = await client.getItemsByIds(ids);
    expect(dtos).toHaveLength(ids.length);
    for (const dto of dtos) {
      const row = (await item(dto.Id))!;
      const simItem = sim.control.item(dto.Id)!;
      expect(row.name).toBe(simItem.name);
      expect(row.run_time_ticks).toBe(simItem.runTimeTicks);
      expect(row.size).toBe(simItem.media!.size);
      const streams = await db.query<{ stream_index: number; type: string; codec: string | null }>(
        'SELECT stream_index, type, codec FROM media_streams WHERE server_id = $1 AND item_id = $2 ORDER BY stream_index',
        [link.id, dto.Id],
      );
      const expected = (dto.MediaSources?.[0]?.MediaStreams ?? []).map((s) => ({
        stream_index: s.Index,
        type: s.Type,
        codec: s.Codec ?? null,
      }));
      expect(streams).toEqual(expected.sort((a, b) => a.stream_index - b.stream_index));
      expect(streams.length).toBeGreaterThan(0);
      const genres = await db.query<{ genre: string }>(
        'SELECT genre FROM item_genres WHERE server_id = $1 AND item_id = $2 ORDER BY genre',
        [link.id, dto.Id],
      );
      expect(genres.map((g) => g.genre)).toEqual([...new Set(simItem.genres)].sort());
    }
  });

  it('archives deleted items, un-archives them when they come back, follows renames, keeps history ids', async () => {
    const [movieId, otherMovie] = sim.control.itemIds('Movie', 2) as [string, string];
    const movie = sim.control.item(movieId)!;
    sim.control.deleteItem(movieId);
    sim.control.advance(60_000);
    sim.control.updateItem(otherMovie, { name: 'Renamed Feature' });
    const resync = await sync().full();
    expect(resync.archived).toBe(1);
    expect(await item(movieId)).toMatchObject({ archived: true, name: movie.name });
    expect(await item(otherMovie)).toMatchObject({ archived: false, name: 'Renamed Feature' });
    // Only what changed was fetched in full.
    expect(resync.itemsWritten).toBe(1);
    await expectLibraryCountsExact();

    sim.control.advance(60_000);
    sim.control.addItem({ id: movieId, type: 'Movie', name: movie.name });
    const back = await sync().full();
    expect(back.archived).toBe(0);
    expect(await item(movieId)).toMatchObject({ archived: false, archived_at: null });
    await expectLibraryCountsExact();
  });

  it('partial sync picks up new and changed items only', async () => {
    sim.control.advance(60_000);
    const series = sim.control.itemIds('Series', 1)[0]!;
    const season = sim.control.addItem({ type: 'Season', name: 'Season 42', parentId: series, indexNumber: 42 });
    const episode = sim.control.addItem({ type: 'Episode', name: 'Brand New Episode', parentId: season.id, indexNumber: 1 });
    const changed = sim.control.itemIds('Audio', 1)[0]!;
    sim.control.updateItem(changed, { name: 'Remastered Track' });
    const partial = await sync().partial();
    // The three, plus at most the item at the cursor's boundary (the movie re-added just before the last sync).
    expect(partial.itemsWritten).toBeGreaterThanOrEqual(3);
    expect(partial.itemsWritten).toBeLessThanOrEqual(4);
    expect(await item(episode.id)).toMatchObject({
      name: 'Brand New Episode',
      season_id: season.id,
      series_id: series,
      parent_index_number: 42,
    });
    expect(await item(changed)).toMatchObject({ name: 'Remastered Track' });
    await expectLibraryCountsExact();
    const again = await sync().partial();
    // Nothing new: at most the items at the cursor's boundary are read again.
    expect(again.itemsWritten).toBeLessThanOrEqual(3);
    expect(again.itemsListed).toBeLessThan(sim.control.counts().items / 20);
  });

  it('a renamed series renames its episodes, and untracked libraries are not read (second server, same simulator)', async () => {
    const other = await linkSimulator(db, sim, flavor, 'second link');
    const second = sync(other);
    const libraries = await second.syncLibraries();
    const music = libraries.find((l) => l.collection_type === 'music')!;
    await db.query('UPDATE libraries SET tracked = false WHERE server_id = $1 AND id = $2', [other.id, music.id]);
    await second.full();
    const types = await countByType(other.id);
    expect(types.Audio).toBeUndefined();
    expect(types.Movie).toBe(sim.control.counts().movies);

    const seriesId = sim.control.itemIds('Series', 1)[0]!;
    sim.control.advance(60_000);
    sim.control.updateItem(seriesId, { name: 'Retitled Show' });
    await sync(other).full();
    const names = await db.query<{ series_name: string }>(
      'SELECT DISTINCT series_name FROM items WHERE server_id = $1 AND series_id = $2',
      [other.id, seriesId],
    );
    expect(names).toEqual([{ series_name: 'Retitled Show' }]);
  });
  it('rides out a flaky server: failed pages are retried with backoff, one page in flight, and the sync completes', async () => {
    const flaky = await linkSimulator(db, sim, flavor, 'flaky link');
    await sim.control.setFaults({ errorRate: 0.2 });
    const client = clientFor(flaky);
    let maxInFlight = 0;
    const watch = setInterval(() => (maxInFlight = Math.max(maxInFlight, client.load.inFlight + client.load.waiting)), 5);
    try {
      const summary = await new LibrarySync(db, flaky, client, recordingReporter(), { pageSize: 50 }).full();
      const counts = sim.control.counts();
      expect(summary.itemsWritten).toBe(
        counts.movies + counts.series + counts.seasons + counts.episodes + counts.artists + counts.albums + counts.tracks,
      );
    } finally {
      clearInterval(watch);
      await sim.control.clearFaults();
    }
    // The current page and the one fetched ahead: requests never pile up behind a slow or failing server.
    expect(maxInFlight).toBeLessThanOrEqual(2);
  });
});
