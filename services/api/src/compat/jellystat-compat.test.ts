import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { finishedRun, startSyncHarness, type SyncHarness } from '../../test/sync-harness.js';

/**
 * Replays the calls the incumbent's (Jellystat's) web client and widgets make, against a real server linked to a
 * Jellyfin simulator that sends no blurhashes, and checks each answer against a zod schema of the form that
 * client reads. The schemas are written from the incumbent's expectations, not from Reelstat's contract.
 */
const incumbentError = z.object({ error: z.string().min(1), errorMessage: z.string().min(1), message: z.string().min(1) });

const recentlyAddedRow = z.discriminatedUnion('Type', [
  z.object({
    Type: z.literal('Episode'),
    Id: z.string(),
    SeriesId: z.string(),
    SeriesName: z.string(),
    SeasonNumber: z.number().int(),
    NewEpisodeCount: z.number().int().min(1),
    PrimaryImageHash: z.null(),
  }),
  z.object({ Type: z.literal('Audio'), Id: z.string(), SeasonNumber: z.null(), EpisodeNumber: z.null(), PrimaryImageHash: z.null() }),
  z.object({ Type: z.enum(['Movie', 'Series']), Id: z.string(), Name: z.string(), PrimaryImageHash: z.null() }),
]);

const viewsChart = z
  .object({
    stats: z.array(z.object({ Key: z.string() }).catchall(z.object({ count: z.number().int(), duration: z.number() }))),
    libraries: z.array(z.object({ Id: z.string(), Name: z.string() })),
  })
  .refine((chart) => chart.stats.every((row) => chart.libraries.every((library) => library.Name in row)), 'rows keyed by library Name');

const mediaStream = z.object({ Type: z.string(), Codec: z.string().optional(), Index: z.number().optional() }).passthrough();
const historyPage = z.object({
  results: z.array(
    z.object({
      Id: z.number(),
      NowPlayingItemName: z.string(),
      ParentId: z.string().nullable(),
      MediaStreams: z.array(mediaStream).nullable(),
      OriginalContainer: z.string().nullable(),
    }),
  ),
  pages: z.number().int(),
  current_page: z.number().int(),
  size: z.number().int(),
});

const libraryItemsPage = z.object({
  results: z.array(z.object({ Id: z.string(), Name: z.string(), times_played: z.number(), PrimaryImageHash: z.null() })),
  pages: z.number().int(),
  current_page: z.number().int(),
  size: z.number().int(),
  search: z.string(),
  sort: z.string(),
  desc: z.boolean(),
});

const taskSettings = z.array(z.object({ name: z.string(), task: z.string(), Interval: z.number().nullable() }));

describe("the incumbent client's calls against a server that sends no blurhashes", () => {
  let h: SyncHarness;
  let libraries: Array<{ Id: string; Name: string; CollectionType: string }>;
  beforeAll(async () => {
    h = await startSyncHarness('jellyfin', {}, { blurHashes: false });
    // History the real way: plays on the simulator, recorded by its Playback Reporting plugin, imported.
    const users = h.sim.control.users().filter((u) => !u.isDisabled && u.enableAllFolders);
    const items = [...h.sim.control.itemIds('Episode', 3), ...h.sim.control.itemIds('Movie', 2), ...h.sim.control.itemIds('Audio', 2)];
    for (const [i, itemId] of items.entries()) {
      const play = h.sim.control.startPlay({ userId: users[i % users.length]!.id, itemId, autoplay: false, method: 'DirectPlay' });
      h.sim.control.advance(60_000);
      h.sim.control.stop(play.playId);
      h.sim.control.advance(5_000);
    }
    expect((await h.call('GET', '/sync/syncPlaybackPluginData')).status).toBe(200);
    expect((await finishedRun(h, 'PlaybackSyncTask')).Result).toBe('Success');
    libraries = (await h.call('GET', '/api/getLibraries')).body as typeof libraries;
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('errors carry error and errorMessage; an empty login probe is 401', async () => {
    const probe = await h.harness.call('POST', '/auth/login', { body: {} });
    expect(probe.status).toBe(401);
    incumbentError.parse(probe.body);
    const notRunning = await h.call('GET', '/api/stopTask?task=JellyfinSync');
    expect(notRunning.status).toBe(409);
    expect(incumbentError.parse(notRunning.body).errorMessage).toBe('FullSyncTask is not running');
  });

  it('recently added: grouped Episode rows, no Season rows, null PrimaryImageHash everywhere', async () => {
    const grouped = z.array(recentlyAddedRow).parse((await h.call('GET', '/api/getRecentlyAdded?GroupResults=true')).body);
    expect(grouped.length).toBeGreaterThan(0);
    const flat = z
      .array(z.object({ Type: z.string(), PrimaryImageHash: z.null() }))
      .parse((await h.call('GET', '/api/getRecentlyAdded?GroupResults=false')).body);
    expect(flat.some((row) => row.Type === 'Season')).toBe(false);
  });

  it('item details and library items: no blurhash means null, never the image tag', async () => {
    const movies = libraries.find((l) => l.CollectionType === 'movies')!;
    const plain = z
      .array(z.object({ Id: z.string(), PrimaryImageHash: z.null(), ImageTags: z.record(z.string(), z.string()).nullable() }))
      .parse((await h.call('POST', '/stats/getLibraryItemsWithStats', { libraryid: movies.Id })).body);
    expect(plain.some((item) => item.ImageTags?.Primary)).toBe(true);
    const [detail] = z
      .array(z.object({ Id: z.string(), PrimaryImageHash: z.null() }))
      .parse((await h.call('POST', '/api/getItemDetails', { Id: plain[0]!.Id })).body);
    expect(detail!.Id).toBe(plain[0]!.Id);
    const paged = libraryItemsPage.parse(
      (await h.call('POST', `/stats/getLibraryItemsWithStats?size=5&page=1&sort=Title&desc=false`, { libraryid: movies.Id })).body,
    );
    expect(paged.results).toHaveLength(Math.min(5, plain.length));
    expect(paged.pages).toBe(Math.ceil(plain.length / 5));
  });

  it('library cards: total_play_time in ticks', async () => {
    const cards = z
      .array(z.object({ Id: z.string(), total_play_time: z.number().int(), Library_Count: z.number().int() }))
      .parse((await h.call('GET', '/stats/getLibraryCardStats')).body);
    const movies = libraries.find((l) => l.CollectionType === 'movies')!;
    const [row] = await h.harness.app.runtime.db.query<{ ticks: number }>(
      `SELECT sum(run_time_ticks)::bigint AS ticks FROM items WHERE library_id = $1 AND type = 'Movie' AND NOT archived`,
      [movies.Id],
    );
    expect(cards.find((c) => c.Id === movies.Id)!.total_play_time).toBe(row!.ticks);
  });

  it('views over time, by weekday and by hour are keyed by library Name', async () => {
    for (const call of ['getViewsOverTime', 'getViewsByDays', 'getViewsByHour']) {
      const chart = viewsChart.parse((await h.call('GET', `/stats/${call}?days=3650`)).body);
      expect(chart.libraries.map((l) => l.Name).sort()).toEqual(libraries.map((l) => l.Name).sort());
    }
  });

  it('history: the comma-separated `in` filter beside the array value; MediaStreams as a stream array', async () => {
    const all = historyPage.parse((await h.call('GET', '/api/getHistory?size=100')).body);
    expect(all.results.length).toBeGreaterThan(0);
    const [first, second] = libraries;
    const filter = (value: unknown) => encodeURIComponent(JSON.stringify([value]));
    const viaIn = historyPage.parse(
      (await h.call('GET', `/api/getHistory?size=100&filters=${filter({ field: 'ParentId', in: `${first!.Id},${second!.Id}` })}`)).body,
    );
    const viaValue = historyPage.parse(
      (await h.call('GET', `/api/getHistory?size=100&filters=${filter({ field: 'ParentId', value: [first!.Id, second!.Id] })}`)).body,
    );
    expect(viaIn.results.map((r) => r.Id)).toEqual(viaValue.results.map((r) => r.Id));
    expect(viaIn.results.every((r) => r.ParentId === first!.Id || r.ParentId === second!.Id)).toBe(true);
    const scoped = historyPage.parse(
      (
        await h.call('POST', `/api/getLibraryHistory?size=10&filters=${filter({ field: 'ParentId', in: first!.Id })}`, {
          libraryid: first!.Id,
        })
      ).body,
    );
    expect(scoped.results.every((r) => r.ParentId === first!.Id)).toBe(true);
  });

  it("tasks answer both names and accept the incumbent's", async () => {
    const list = taskSettings.parse((await h.call('GET', '/api/getTaskSettings')).body);
    expect(list.map((t) => t.task).sort()).toEqual([
      'Backup',
      'JellyfinPlaybackReportingPluginSync',
      'JellyfinSync',
      'PartialJellyfinSync',
    ]);
    const keyed = z
      .record(z.string(), z.object({ Interval: z.number().nullable() }))
      .parse((await h.call('GET', '/api/getTaskSettings?as=object')).body);
    expect(keyed.JellyfinSync!.Interval).toBe(15);
    expect((await h.call('POST', '/api/setTaskSettings', { taskname: 'JellyfinSync', Interval: 60 })).status).toBe(200);
    expect(taskSettings.parse((await h.call('GET', '/api/getTaskSettings')).body).find((t) => t.task === 'JellyfinSync')!.Interval).toBe(
      60,
    );
  });
});
