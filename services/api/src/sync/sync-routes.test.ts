import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedRun, startSyncHarness, type SyncHarness } from '../../test/sync-harness.js';

describe.each(['jellyfin', 'emby'] as const)('sync routes (%s)', (flavor) => {
  let h: SyncHarness;
  beforeAll(async () => {
    h = await startSyncHarness(flavor);
  });
  afterAll(async () => {
    await h?.stop();
  });
  const db = () => h.harness.app.runtime.db;

  it('lists libraries (boxsets and playlists left out) and flips one between tracked and excluded', async () => {
    const listed = await h.call('GET', '/api/TrackedLibraries');
    expect(listed.status).toBe(200);
    const libraries = listed.body as Array<{ Id: string; Name: string; CollectionType: string; Tracked: boolean }>;
    expect(libraries.map((l) => l.CollectionType).sort()).toEqual(['mixed', 'movies', 'music', 'tvshows']);
    expect(libraries.every((l) => l.Tracked)).toBe(true);
    const music = libraries.find((l) => l.CollectionType === 'music')!;

    const excluded = await h.call('POST', '/api/setExcludedLibraries', { libraryID: music.Id });
    expect((excluded.body as typeof libraries).find((l) => l.Id === music.Id)).toEqual({ ...music, Tracked: false });
    expect((await h.call('POST', '/api/setExcludedLibraries', { libraryID: 'nope' })).status).toBe(404);
    expect((await h.call('POST', '/api/setExcludedLibraries', {})).status).toBe(400);

    // The sync that linking started read the music library; a full sync after the exclusion must not bring it back.
    await db().query('DELETE FROM items WHERE library_id = $1 RETURNING 1', [music.Id]);
    expect((await h.call('GET', '/sync/beginSync')).status).toBe(200);
    expect((await finishedRun(h, 'FullSyncTask')).Result).toBe('Success');
    const [tracks] = await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM items WHERE type = 'Audio'`);
    expect(tracks!.n).toBe(0);

    const back = await h.call('POST', '/api/setExcludedLibraries', { libraryID: music.Id });
    expect((back.body as typeof libraries).find((l) => l.Id === music.Id)!.Tracked).toBe(true);
    // A library tracked again is read whole by the next partial sync.
    expect((await h.call('GET', '/sync/beginPartialSync')).status).toBe(200);
    expect((await finishedRun(h, 'PartialSyncTask')).Result).toBe('Success');
    const [after] = await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM items WHERE type = 'Audio'`);
    expect(after!.n).toBe(h.sim.control.counts().tracks);
  });

  it('fetches a missing item with its missing parents; 404 with the reason when the server does not have it', async () => {
    const episodeId = h.sim.control.itemIds('Episode', 1)[0]!;
    const episode = h.sim.control.item(episodeId)!;
    // The episode, its season and its series are gone from the database (e.g. added after the last sync).
    await db().query('DELETE FROM items WHERE id = ANY($1::text[]) RETURNING 1', [[episodeId, episode.seasonId, episode.seriesId]]);
    const fetched = await h.call('POST', '/sync/fetchItem', { itemId: episodeId });
    expect(fetched).toMatchObject({
      status: 200,
      body: {
        message: `${episode.name} fetched`,
        item: { Id: episodeId, Name: episode.name, Type: 'Episode', LibraryId: episode.libraryId },
      },
    });
    const rows = await db().query<{ id: string; type: string; library_id: string }>(
      'SELECT id, type, library_id FROM items WHERE id = ANY($1::text[]) ORDER BY type',
      [[episodeId, episode.seasonId, episode.seriesId]],
    );
    expect(rows).toEqual([
      { id: episodeId, type: 'Episode', library_id: episode.libraryId },
      { id: episode.seasonId, type: 'Season', library_id: episode.libraryId },
      { id: episode.seriesId, type: 'Series', library_id: episode.libraryId },
    ]);

    const unknown = flavor === 'emby' ? '987654321' : 'f'.repeat(32);
    const missing = await h.call('POST', '/sync/fetchItem', { itemId: unknown });
    expect(missing).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: `Item ${unknown} was not found on the media server` },
    });
    const bad = await h.call('POST', '/sync/fetchItem', { itemId: '1; DROP TABLE items' });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toContain('body.itemId: must be a media-server id');
  });
});
