import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { recordPlays, type PlayToRecord } from '../history/record-plays.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { activityTimeline } from './timeline.js';

describe('activityTimeline', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const day = (n: number, hour = 20) => new Date(Date.UTC(2026, 2, n, hour));
  let key = 0;
  const movie = (id: string, name: string, at: Date, libraryId = 'movies'): PlayToRecord => ({
    serverId,
    playKey: `p${key++}`,
    source: 'monitor',
    userId: 'u1',
    userName: 'Alice',
    itemId: id,
    itemName: name,
    itemType: 'Movie',
    libraryId,
    playMethod: 'DirectPlay',
    startedAt: at,
    playedSeconds: 600,
  });
  const episode = (season: number, episodeNumber: number, at: Date): PlayToRecord => ({
    ...movie(`dark-s${season}e${episodeNumber}`, `Episode ${episodeNumber}`, at, 'shows'),
    itemType: 'Episode',
    seriesId: 'dark',
    seriesName: 'Dark',
    seasonId: `dark-s${season}`,
    seasonNumber: season,
    episodeNumber,
  });

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    // Oldest to newest (Dark: 4 different episodes, S1E2 twice). The music play sits between two Dark plays: left out, it does not split them.
    await recordPlays(db, [
      movie('heat', 'Heat', day(1)),
      episode(1, 1, day(2)),
      episode(1, 2, day(2, 21)),
      episode(1, 2, day(3)),
      movie('song', 'A Song', day(3, 21), 'music'),
      episode(2, 1, day(4)),
      episode(3, 4, day(5)),
      movie('alien', 'Alien', day(6)),
      movie('alien', 'Alien', day(7)),
      episode(3, 5, day(8)),
    ]);
  });
  afterAll(async () => {
    await close();
  });

  const entries = (list: Awaited<ReturnType<typeof activityTimeline>>) =>
    list.map((e) => [e.Title, e.SeasonName, e.EpisodeCount, e.FirstActivityDate.slice(0, 10), e.LastActivityDate.slice(0, 10)]);

  it('merges consecutive plays of a show across seasons, newest first', async () => {
    expect(entries(await activityTimeline(db, serverId, 'u1', ['movies', 'shows']))).toEqual([
      ['Dark', 'Season 3', 1, '2026-03-08', '2026-03-08'],
      ['Alien', null, null, '2026-03-06', '2026-03-07'],
      ['Dark', 'Season 1 - Season 3', 4, '2026-03-02', '2026-03-05'],
      ['Heat', null, null, '2026-03-01', '2026-03-01'],
    ]);
    // With the music library chosen too, the song splits the Dark run in two.
    expect(entries(await activityTimeline(db, serverId, 'u1', ['movies', 'shows', 'music'])).map((e) => e[0])).toEqual([
      'Dark',
      'Alien',
      'Dark',
      'A Song',
      'Dark',
      'Heat',
    ]);
  });

  it('names an entry after its first play and its type', async () => {
    const [, alien] = await activityTimeline(db, serverId, 'u1', ['movies']);
    expect(alien).toMatchObject({ Title: 'Heat', MediaType: 'Movie', NowPlayingItemId: 'heat' });
  });

  it('reads more plays when the first read did not hold every entry whole', async () => {
    // 2 entries: the newest 4 plays (Dark S3E5, Alien ×2, Dark S3E4) already show a third run begun: enough.
    expect(entries(await activityTimeline(db, serverId, 'u1', ['movies', 'shows'], { plays: 100, entries: 2 }))).toEqual([
      ['Dark', 'Season 3', 1, '2026-03-08', '2026-03-08'],
      ['Alien', null, null, '2026-03-06', '2026-03-07'],
    ]);
    // 3 entries: the newest 6 plays end inside the long Dark run, so all plays are read and it is whole.
    expect(entries(await activityTimeline(db, serverId, 'u1', ['movies', 'shows'], { plays: 100, entries: 3 }))[2]).toEqual([
      'Dark',
      'Season 1 - Season 3',
      4,
      '2026-03-02',
      '2026-03-05',
    ]);
  });

  it('leaves out the oldest run when the play limit cut it, and keeps at most the entry limit', async () => {
    // The newest 4 plays: Dark S3E5, Alien ×2, and only Dark S3E4 of the long Dark run: that run is dropped.
    expect(entries(await activityTimeline(db, serverId, 'u1', ['movies', 'shows'], { plays: 4, entries: 10 })).map((e) => e[0])).toEqual([
      'Dark',
      'Alien',
    ]);
    // Below the play limit nothing is cut.
    expect(await activityTimeline(db, serverId, 'u1', ['movies', 'shows'], { plays: 100, entries: 10 })).toHaveLength(4);
    // The entry limit keeps the newest entries and does not mistake the last kept one for a cut run.
    expect(entries(await activityTimeline(db, serverId, 'u1', ['movies', 'shows'], { plays: 8, entries: 2 })).map((e) => e[0])).toEqual([
      'Dark',
      'Alien',
    ]);
  });
});
