// The library of plays whose items sync has not seen yet (a fresh install, a new episode) comes from the media
// server, walking up the parents. A poll waits for it, and a play that starts meanwhile is first seen late (its
// start becomes a later report): at 500 sessions the walk must ask each parent once and not one item at a time.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createMediaServerClient } from '../media-server/create-client.js';
import type { MediaServerClient } from '../media-server/media-server-client.js';
import { createTestDatabase, testLogger, type TestDatabase } from '../test-support/test-services.js';
import { PlayClassifier } from './play-classifier.js';
import { newPlayKeyOf } from './play-state-machine.js';
import { sampleSessions } from './session-sample.js';

describe('PlayClassifier on items sync has not seen', () => {
  let database: TestDatabase;
  let db: Database;
  let sim: RunningSimulator;
  let serverId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url, testLogger);
    await migrateToLatest(db, testLogger);
    sim = await startSimulator({ flavor: 'jellyfin', clock: 'virtual', scale: 'small', seed: 4 });
    serverId = randomUUID();
    await db.query(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, is_default) VALUES ($1, 'sim', 'jellyfin', $2, 'sealed', true)`,
      [serverId, sim.url],
    );
  });
  afterAll(async () => {
    await sim.stop();
    await db.close();
    await database.drop();
  });

  it('asks the media server for each parent once, several at a time, and finds every library', async () => {
    const client = createMediaServerClient({ kind: 'jellyfin', url: sim.url, apiKey: sim.apiKey, retries: 0 });
    // Counts the item lookups and how many were in flight at once (the real client does the requests).
    const asked: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const counting = new Proxy(client, {
      get(target, property, receiver) {
        if (property !== 'getItem') return Reflect.get(target, property, receiver) as unknown;
        return async (id: string) => {
          asked.push(id);
          mostInFlight = Math.max(mostInFlight, ++inFlight);
          try {
            return await target.getItem(id);
          } finally {
            inFlight--;
          }
        };
      },
    }) as MediaServerClient;

    // Twelve episodes of two series and two movies, each played by its own session.
    const episodes = sim.control.itemIds('Episode').map((id) => sim.control.item(id)!);
    const series = [...new Set(episodes.map((e) => e.seriesId))].slice(0, 2);
    const chosen = series.flatMap((s) => episodes.filter((e) => e.seriesId === s).slice(0, 6));
    expect(chosen).toHaveLength(12);
    const movies = sim.control.itemIds('Movie').slice(0, 2);
    const userId = sim.control.users().find((u) => !u.isDisabled && u.enableAllFolders)!.id;
    for (const [i, itemId] of [...chosen.map((e) => e.id), ...movies].entries())
      sim.control.startPlay({ userId, itemId, deviceId: `classify-${i}` });
    const samples = sampleSessions(await client.getSessions(), 'jellyfin', sim.control.clock.now());
    expect(samples).toHaveLength(14);

    const classified = await new PlayClassifier(db, serverId, counting, testLogger).classify(samples);

    for (const sample of samples) {
      const episode = sim.control.item(sample.itemId)!;
      expect(classified.get(newPlayKeyOf(sample))).toEqual({ libraryId: episode.libraryId, excluded: null });
    }
    // Each movie, and each season and series once (an episode's walk starts at the season its session names;
    // every walk stops at the library).
    const parents = new Set(chosen.flatMap((e) => [e.seasonId, e.seriesId]));
    expect(asked.length).toBe(movies.length + parents.size);
    expect(new Set(asked).size).toBe(asked.length);
    expect(mostInFlight).toBeGreaterThan(1);
  });
});
