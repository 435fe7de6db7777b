import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { recordPlays } from '../history/record-plays.js';
import { HistoryService } from '../history/history-service.js';
import { LibraryService } from '../library/library-service.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { StatisticsContext } from './statistics-context.js';
import { StatisticsService } from './statistics-service.js';

/** The domain services read the server they are given, else the default one; an unknown one reads as none. */
describe('statistics, history and library services: which media server they read', () => {
  let db: Database;
  let close: () => Promise<void>;
  let stats: StatisticsService;
  let history: HistoryService;
  let library: LibraryService;
  const defaultServer = randomUUID();
  const otherServer = randomUUID();
  const page = { page: 1, size: 10, search: '', sort: 'ActivityDateInserted' as const, desc: true, filters: [] };

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(defaultServer));
    await db.query(`UPDATE media_servers SET is_default = true WHERE id = $1`, [defaultServer]);
    await db.query(`INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, 'emby', 'emby', 'http://y', 'v1.y')`, [
      otherServer,
    ]);
    for (const [serverId, library] of [
      [defaultServer, 'films'],
      [otherServer, 'music'],
    ] as const) {
      await db.query(`INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, $2, $2, 'movies')`, [serverId, library]);
    }
    await recordPlays(db, [
      {
        serverId: otherServer,
        playKey: 'p1',
        source: 'monitor',
        userId: 'u1',
        userName: 'Bob',
        itemId: 'i1',
        itemName: 'Song',
        itemType: 'Movie',
        libraryId: 'music',
        client: 'Emby Web',
        playMethod: 'DirectPlay',
        startedAt: new Date(Date.now() - 3_600_000),
        playedSeconds: 60,
      },
    ]);
    const context = new StatisticsContext(db, 'UTC');
    stats = new StatisticsService(db, context);
    history = new HistoryService(db, context);
    library = new LibraryService(db, context);
  });
  afterAll(async () => {
    await close();
  });

  it('reads the default server when no id is given, and the named one when one is', async () => {
    expect((await library.libraries()).map((row) => row.Id)).toEqual(['films']);
    expect((await library.libraries(otherServer)).map((row) => row.Id)).toEqual(['music']);
    expect((await history.page({ kind: 'all' }, page)).total).toBe(0);
    expect((await history.page({ kind: 'all' }, page, otherServer)).total).toBe(1);
    expect((await stats.userTotals('u1', 24)).Plays).toBe(0);
    expect(await stats.userTotals('u1', 24, otherServer)).toEqual({ Plays: 1, total_playback_duration: 60, UserId: 'u1' });
  });

  it('answers empty for an unknown server id, and 409 where a server is required', async () => {
    const unknown = randomUUID();
    expect(await library.libraries(unknown)).toEqual([]);
    expect(await stats.mostViewedLibraries({ days: 30 }, unknown)).toEqual([]);
    expect(await stats.userGenres('u1', unknown)).toEqual({ results: [] });
    await expect(library.user('u1', unknown)).rejects.toMatchObject({ status: 409 });
    await expect(history.deletePlays([1], unknown)).rejects.toMatchObject({ status: 409 });
  });

  it('counts a search once for all its pages, and again once a play is recorded or deleted', async () => {
    const searched = { ...page, size: 25, search: 'storm' };
    const storm = (playKey: string) => ({
      serverId: otherServer,
      playKey,
      source: 'monitor' as const,
      userId: 'u1',
      userName: 'Bob',
      itemId: `storm-${playKey}`,
      itemName: 'The Storm',
      itemType: 'Movie',
      libraryId: 'music',
      client: 'Emby Web',
      playMethod: 'DirectPlay' as const,
      startedAt: new Date(Date.now() - 600_000),
      playedSeconds: 60,
    });
    await recordPlays(db, [storm('s1'), storm('s2')]);
    const first = await history.page({ kind: 'all' }, searched, otherServer);
    expect([first.total, first.total_exact]).toEqual([2, true]);
    // A rename without a new play keeps the history's version: page 2 reuses the count (a recount would say 1).
    await db.query(`UPDATE playback_history SET item_name = 'Calm' WHERE play_key = 's2'`);
    expect((await history.page({ kind: 'all' }, { ...searched, page: 2 }, otherServer)).total).toBe(2);
    // Put the name back: only the writers keep the search's dictionary (0025), and the recounts below read it.
    await db.query(`UPDATE playback_history SET item_name = 'The Storm' WHERE play_key = 's2'`);

    await recordPlays(db, [storm('s3')]);
    expect((await history.page({ kind: 'all' }, searched, otherServer)).total).toBe(3);
    const [row] = await db.query<{ id: number }>(`SELECT id FROM playback_history WHERE play_key = 's1'`);
    await history.deletePlays([row!.id], otherServer);
    expect((await history.page({ kind: 'all' }, searched, otherServer)).total).toBe(2);
  });
});
