// A sync that finds new items fires one media_recently_added per run, episodes grouped by series; the first
// import of a library announces nothing; a re-added (archived) item is not news.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '@reelstat/jellyfin-sim';
import type { Database } from '../db/database.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import { SecretBox } from '../security/secret-box.js';
import type { TestDatabase } from '../test-support/test-services.js';
import { LibrarySync } from '../sync/library-sync.js';
import { clientFor } from '../sync/sync-context.js';
import { linkSimulator, recordingReporter, syncTestDatabase } from '../sync/sync-test-helpers.js';
import type { RecentlyAddedData } from './webhook-events.js';
import { WebhookService } from './webhook-service.js';

describe('media_recently_added from the sync', () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let database: TestDatabase;
  let db: Database;
  let link: MediaServerLink;
  const sync = () => new LibrarySync(db, link, clientFor(link), recordingReporter(), { pageSize: 50, listPageSize: 80 });
  const announced = () =>
    db.query<{ payload: { server: { name: string }; data: RecentlyAddedData } }>(
      `SELECT payload FROM webhook_deliveries WHERE event_type = 'media_recently_added' ORDER BY id`,
    );

  beforeAll(async () => {
    sim = await startSimulator({ flavor: 'jellyfin', scale: 'tiny', seed: 5 });
    ({ database, db } = await syncTestDatabase());
    link = await linkSimulator(db, sim, 'jellyfin', 'Home');
    await new WebhookService(db, new SecretBox('recently-added-tests-0123456789abcdef'), 'UTC').create({
      name: 'new media',
      url: 'http://127.0.0.1:9/new',
      webhook_type: 'discord',
      trigger_type: 'event',
      event_type: 'media_recently_added',
    });
  });
  afterAll(async () => {
    await sim.stop();
    await db.close();
    await database.drop();
  });

  it('the first import announces nothing; then one batched event per run, for full and partial syncs', async () => {
    await sync().full();
    expect(await announced()).toEqual([]);

    sim.control.advance(60_000);
    const series = sim.control.itemIds('Series', 1)[0]!;
    const seriesName = sim.control.item(series)!.name;
    const season = sim.control.addItem({ type: 'Season', name: 'Season 9', parentId: series, indexNumber: 9 });
    const e1 = sim.control.addItem({ type: 'Episode', name: 'Nine One', parentId: season.id, indexNumber: 1 });
    const e2 = sim.control.addItem({ type: 'Episode', name: 'Nine Two', parentId: season.id, indexNumber: 2 });
    const movie = sim.control.addItem({ type: 'Movie', name: 'A Brand New Film' });
    await sync().full();

    const [first, ...rest] = await announced();
    expect(rest).toEqual([]);
    expect(first!.payload.server.name).toBe('Home');
    expect(first!.payload.data).toEqual({
      total: 3,
      movies: [expect.objectContaining({ id: movie.id, name: 'A Brand New Film', type: 'Movie' })],
      series: [
        {
          id: series,
          name: seriesName,
          episodes: [
            { id: e1.id, name: 'Nine One', season_number: 9, episode_number: 1 },
            { id: e2.id, name: 'Nine Two', season_number: 9, episode_number: 2 },
          ],
        },
      ],
      other: [],
    });

    sim.control.advance(60_000);
    const e3 = sim.control.addItem({ type: 'Episode', name: 'Nine Three', parentId: season.id, indexNumber: 3 });
    await sync().partial();
    const after = await announced();
    expect(after).toHaveLength(2);
    expect(after[1]!.payload.data.series.map((s) => s.episodes.map((e) => e.id))).toEqual([[e3.id]]);

    // Nothing new: nothing announced.
    await sync().partial();
    await sync().full();
    expect(await announced()).toHaveLength(2);
    expect(await db.query('SELECT * FROM webhook_item_announcements')).toEqual([]);
  });
});
