import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { HISTORY_COUNT_CAP, queryHistory, type HistoryRequest } from './history-query.js';
import { recordPlays, type PlayToRecord } from './record-plays.js';

/**
 * Deep pages and capped counts on 10,050 plays: play i starts i minutes after a fixed base, is watched for
 * (i mod 7) seconds, by "Alice" when i is even and "Bob" when odd; every 201st play is on the "Roku" client.
 */
describe('history pages', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const N = 10_050;
  const base = Date.parse('2026-01-01T00:00:00Z');
  const request = (overrides: Partial<HistoryRequest>): HistoryRequest => ({
    scope: { kind: 'all' },
    page: 1,
    size: 100,
    search: '',
    sort: 'ActivityDateInserted',
    desc: true,
    filters: {},
    ...overrides,
  });

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    const plays: PlayToRecord[] = Array.from({ length: N }, (_, i) => ({
      serverId,
      playKey: `k${i}`,
      source: 'monitor',
      userId: i % 2 === 0 ? 'u1' : 'u2',
      userName: i % 2 === 0 ? 'Alice' : 'Bob',
      itemId: `item-${i}`,
      itemName: `Film ${i}`,
      itemType: 'Movie',
      libraryId: 'lib',
      client: i % 201 === 0 ? 'Roku' : 'Jellyfin Web',
      playMethod: 'DirectPlay',
      startedAt: new Date(base + i * 60_000),
      playedSeconds: i % 7,
    }));
    expect(await recordPlays(db, plays)).toBe(N);
  }, 60_000);
  afterAll(async () => {
    await close();
  });

  const keys = (results: Array<{ NowPlayingItemName: string }>) => results.map((row) => Number(row.NowPlayingItemName.slice(5)));

  it('reaches the last page exactly (newest first)', async () => {
    const last = await queryHistory(db, serverId, request({ page: 101 }));
    expect([last.total, last.total_exact, last.pages]).toEqual([N, true, 101]);
    expect(keys(last.results)).toEqual(Array.from({ length: 50 }, (_, j) => 49 - j));
    const first = await queryHistory(db, serverId, request({ page: 1, size: 10 }));
    expect(keys(first.results)).toEqual(Array.from({ length: 10 }, (_, j) => N - 1 - j));
  });

  it('sorts by another column with ties in id order', async () => {
    // Ascending by seconds: all plays with i mod 7 = 0 first (i = 0, 7, 14, …), in insertion order.
    const page = await queryHistory(db, serverId, request({ sort: 'PlaybackDuration', desc: false, size: 10, page: 2 }));
    expect(keys(page.results)).toEqual(Array.from({ length: 10 }, (_, j) => (10 + j) * 7));
  });

  it("shows the stored play method as it is and filters on it (Emby's rule is applied when rows are written)", async () => {
    await db.query(`UPDATE playback_history SET play_method = 'DirectStream' WHERE play_key IN ('k10049', 'k10047')`);
    const page = await queryHistory(db, serverId, request({ size: 10 }));
    expect(page.results.slice(0, 4).map((row) => row.PlayMethod)).toEqual(['DirectStream', 'DirectPlay', 'DirectStream', 'DirectPlay']);
    const direct = await queryHistory(db, serverId, request({ size: 10, filters: { playMethods: ['DirectStream'] } }));
    expect([direct.total, direct.total_exact, keys(direct.results)]).toEqual([2, true, [10_049, 10_047]]);
    await db.query(`UPDATE playback_history SET play_method = 'DirectPlay' WHERE play_key IN ('k10049', 'k10047')`);
  });

  it('counts searches exactly up to the cap, and says when it stopped', async () => {
    const roku = await queryHistory(db, serverId, request({ search: 'roku', size: 25 }));
    // i = 0, 201, …, 9849: 50 plays.
    expect([roku.total, roku.total_exact, roku.pages]).toEqual([50, true, 2]);
    const everything = await queryHistory(db, serverId, request({ search: 'film', size: 25 }));
    expect([everything.total, everything.total_exact, everything.pages]).toEqual([HISTORY_COUNT_CAP, false, HISTORY_COUNT_CAP / 25]);
    // A deep page of a search above the cap: the last 50 plays, oldest last.
    const deepest = await queryHistory(db, serverId, request({ search: 'film', page: 101, size: 100 }));
    expect([deepest.total, deepest.total_exact, keys(deepest.results)]).toEqual([
      HISTORY_COUNT_CAP,
      false,
      Array.from({ length: 50 }, (_, j) => 49 - j),
    ]);
    const bob = await queryHistory(db, serverId, request({ scope: { kind: 'user', id: 'u2' }, page: 51, size: 100 }));
    // Bob has the 5,025 odd i; page 51 holds his 25 oldest: i = 49, 47, …, 1.
    expect([bob.total, bob.total_exact]).toEqual([5025, true]);
    expect(keys(bob.results)).toEqual(Array.from({ length: 25 }, (_, j) => 49 - 2 * j));
  });

  it('counts a word whose values were not all looked up from its base field and the rest, up to the cap', async () => {
    // A first look-up of one value per pattern leaves the titles' values unread: the count sums the base field's
    // plays from the dictionary and reads the other fields' plays (search-plan.ts baseCountRows).
    const seen: string[] = [];
    const noting = new Proxy(db, {
      get: (target, property, receiver) =>
        property === 'query'
          ? (sql: string, bind?: unknown[]) => {
              if (sql.includes('rest_terms AS MATERIALIZED')) seen.push(sql);
              return target.query(sql, bind);
            }
          : Reflect.get(target, property, receiver),
    });
    const film = await queryHistory(noting, serverId, request({ search: 'film', size: 25 }), undefined, { lookupTerms: 1 });
    expect([film.total, film.total_exact]).toEqual([HISTORY_COUNT_CAP, false]);
    // Below the cap, against a plain scan: titles holding 1 or 10 (thousands of values), a user (Bob), a client (Roku).
    for (const word of ['1', '10', 'o', 'ku']) {
      const [plain] = await db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM playback_history WHERE server_id = $1
           AND (user_name || ' ' || item_name || ' ' || coalesce(client, '')) ILIKE $2`,
        [serverId, `%${word}%`],
      );
      const answer = await queryHistory(noting, serverId, request({ search: word, size: 25 }), undefined, { lookupTerms: 1 });
      expect([answer.total, answer.total_exact], word).toEqual([
        Math.min(plain!.count, HISTORY_COUNT_CAP),
        plain!.count <= HISTORY_COUNT_CAP,
      ]);
    }
    expect(seen.length).toBeGreaterThan(0);
  });
});
