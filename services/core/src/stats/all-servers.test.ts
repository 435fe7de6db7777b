import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { HistoryService } from '../history/history-service.js';
import { recordPlays, type PlayMethod, type PlayToRecord } from '../history/record-plays.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { AllServersReads } from './all-servers.js';
import { StatisticsContext } from './statistics-context.js';
import { StatisticsService } from './statistics-service.js';

/**
 * "All servers" ranks clients over the sum of every server: a client sixth on each server but first in the sum is
 * on the card (summing only each server's top five would leave it out). Play methods are three (a check
 * constraint), so each server's answer is already whole; they are summed the same way.
 */
describe('All servers: clients summed before the top five is kept', () => {
  let db: Database;
  let close: () => Promise<void>;
  let all: AllServersReads;
  let stats: StatisticsService;
  const jellyfin = randomUUID();
  const emby = randomUUID();

  /** `count` plays of one client on one server, an hour apart, 60 s each. */
  const plays = (serverId: string, client: string, count: number, playMethod: PlayMethod = 'DirectPlay'): PlayToRecord[] =>
    Array.from({ length: count }, (_, n) => ({
      serverId,
      playKey: `${serverId}-${client}-${n}`,
      source: 'monitor' as const,
      userId: 'u1',
      userName: 'Ann',
      itemId: 'movie',
      itemName: 'Film',
      itemType: 'Movie',
      libraryId: 'films',
      client,
      playMethod,
      startedAt: new Date(Date.now() - (n + 1) * 3_600_000),
      playedSeconds: 60,
    }));

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(jellyfin));
    await db.query(`UPDATE media_servers SET is_default = true WHERE id = $1`, [jellyfin]);
    await db.query(`INSERT INTO media_servers (id, name, kind, url, api_key_encrypted) VALUES ($1, 'emby', 'emby', 'http://y', 'v1.y')`, [
      emby,
    ]);
    const rows: PlayToRecord[] = [];
    for (const [serverId, prefix] of [
      [jellyfin, 'J'],
      [emby, 'E'],
    ] as const) {
      // Five clients with 10 plays each on every server, then "Shared" sixth with 6 (12 in all).
      for (let n = 1; n <= 5; n += 1) rows.push(...plays(serverId, `${prefix}${n}`, 10));
      rows.push(...plays(serverId, 'Shared', 6, 'Transcode'));
    }
    await recordPlays(db, rows);
    const context = new StatisticsContext(db, 'UTC');
    stats = new StatisticsService(db, context);
    all = new AllServersReads(context, stats, new HistoryService(db, context));
  });
  afterAll(async () => {
    await close();
  });

  it('each server alone leaves "Shared" out of its top five', async () => {
    for (const serverId of [jellyfin, emby]) {
      expect((await stats.mostUsedClients({ days: 30 }, serverId)).map((row) => row.Client)).not.toContain('Shared');
    }
  });

  it('the sum over both servers puts "Shared" first, then the best of the rest by name', async () => {
    expect(await all.mostUsedClients({ days: 30 })).toEqual([
      { Client: 'Shared', Plays: 12, total_playback_duration: 720 },
      { Client: 'E1', Plays: 10, total_playback_duration: 600 },
      { Client: 'E2', Plays: 10, total_playback_duration: 600 },
      { Client: 'E3', Plays: 10, total_playback_duration: 600 },
      { Client: 'E4', Plays: 10, total_playback_duration: 600 },
    ]);
    const methods = await all.playbackMethods({ days: 30 });
    // Emby's direct play is stored as DirectStream (SPEC.md §3).
    expect(methods.map((row) => [row.Name, row.Count])).toEqual([
      ['DirectPlay', 50],
      ['DirectStream', 50],
      ['Transcode', 12],
    ]);
  });
});
