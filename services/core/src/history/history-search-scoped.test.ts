import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { HISTORY_COUNT_CAP, queryHistory, type HistoryRequest, type HistoryScope } from './history-query.js';
import { KEYED_PLAYS } from './search-plan.js';
import { libraryValuesCount } from './library-search-count.js';
import { recordPlays, type PlayToRecord } from './record-plays.js';

/**
 * Searches within a user or a library whose word is in more plays than a keyed plan reads (KEYED_PLAYS): the
 * count walks the scope, and a word without a space is checked there by the dictionary's values that contain it
 * (history-query.ts fieldValuesCheck). Compared with a plain scan: the count (exact below the cap, "at least"
 * above it) and the first, second and a deep page. The history holds a film renamed in some plays (the word in one
 * of its names), a film whose name is empty in some plays and a user renamed half way.
 */
describe('history search within a scope, common words', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const base = Date.parse('2026-02-01T00:00:00Z');
  const N = KEYED_PLAYS + 1_500;
  const colours = ['Red', 'Blue', 'Green'];

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    const plays: PlayToRecord[] = Array.from({ length: N }, (_, i) => {
      const item = i % 300;
      const client = i % 5 === 0 ? 'Android TV App' : 'Jellyfin Web App';
      return {
        serverId,
        playKey: `s${i}`,
        source: 'monitor',
        userId: i % 2 === 0 ? 'u1' : 'u2',
        userName: i % 2 === 0 ? (i < N / 2 ? 'Alice' : 'Alicia Storm') : 'Bob',
        itemId: `item-${item}`,
        itemName: item === 7 && i % 4 === 3 ? '' : item === 8 && i % 4 === 1 ? 'Quiet' : `${colours[item % 3]} Storm ${item}`,
        itemType: 'Movie',
        libraryId: i % 3 === 0 ? 'lib-b' : 'lib',
        client,
        // A device holds its client's first word only: `app` lies in clients alone, `jellyfin` in both.
        deviceName: `${client.split(' ')[0]} ${i % 7}`,
        remoteEndPoint: `10.2.0.${i % 9}`,
        playMethod: 'DirectPlay',
        // Ties every fourth play, so that pages order ties by id.
        startedAt: new Date(base + (i - (i % 4 === 1 ? 1 : 0)) * 60_000),
        playedSeconds: i % 50,
      };
    });
    expect(await recordPlays(db, plays)).toBe(N);
  }, 120_000);
  afterAll(async () => {
    await close();
  });

  const request = (search: string, scope: HistoryScope, page: number): HistoryRequest => ({
    scope,
    page,
    size: 25,
    search,
    sort: 'ActivityDateInserted',
    desc: true,
    filters: {},
  });

  it.each([
    // Every title: above the cap in `lib` and for each user, below it in `lib-b`.
    'storm',
    // One letter: titles, user names, clients, devices.
    'e',
    // A client and its devices in a fifth of the plays, and the renamed user's new name.
    'a',
    // Two words: checked on the joined text.
    'red storm',
    // Every client and nothing else: counted from the library's client totals (0039), exact, above and below the cap.
    'app',
    // A client and its devices in four fifths of the plays: the clients' totals pass the cap in `lib` (at least
    // the cap); `lib-b` holds fewer, and its plays are read.
    'jellyfin',
  ])('counts and pages %j within each library and user as a plain scan does', async (word) => {
    for (const [column, scope] of [
      ['library_id', { kind: 'library', id: 'lib' }],
      ['library_id', { kind: 'library', id: 'lib-b' }],
      ['user_id', { kind: 'user', id: 'u1' }],
      ['user_id', { kind: 'user', id: 'u2' }],
    ] as const) {
      const rows = await db.query<{ id: number }>(
        `SELECT id FROM playback_history WHERE server_id = $1 AND ${column} = $3 AND (coalesce(user_name, '') || ' ' || coalesce(series_name, '')
               || ' ' || item_name || ' ' || coalesce(client, '') || ' ' || coalesce(device_name, '') || ' ' || coalesce(remote_end_point, '')) ILIKE $2
             ORDER BY started_at DESC, id DESC`,
        [serverId, `%${word}%`, scope.id],
      );
      const ids = rows.map((row) => row.id);
      const deep = Math.max(1, Math.ceil(ids.length / 25) - 3);
      for (const page of [1, 2, deep]) {
        const answer = await queryHistory(db, serverId, request(word, scope, page));
        const found = answer.results.flatMap((row) => (row.results.length > 0 ? row.results : [row]).map((play) => play.Id));
        expect(found, `${scope.id} page ${page}`).toEqual(ids.slice((page - 1) * 25, page * 25));
        expect([answer.total, answer.total_exact], scope.id).toEqual(
          ids.length > HISTORY_COUNT_CAP ? [HISTORY_COUNT_CAP, false] : [ids.length, true],
        );
      }
    }
  });

  it("counts a library's clients and devices from their totals", async () => {
    const count = async (library: string, column: string, word: string) => {
      const [row] = await db.query<{ plays: number }>(
        `SELECT count(*)::int AS plays FROM playback_history WHERE server_id = $1 AND library_id = $2 AND ${column} ILIKE $3`,
        [serverId, library, `%${word}%`],
      );
      return row!.plays;
    };
    const clients = new Map([['client', ['Android TV App', 'Jellyfin Web App']]]);
    expect(await libraryValuesCount(db, [serverId], 'lib-b', clients, HISTORY_COUNT_CAP)).toBe(await count('lib-b', 'client', 'app'));
    expect(await libraryValuesCount(db, [serverId], 'lib', clients, HISTORY_COUNT_CAP)).toBe(await count('lib', 'client', 'app'));
    // Two columns: only a lower bound, which answers above the cap alone.
    const both = new Map([
      ['client', ['Jellyfin Web App']],
      ['device_name', Array.from({ length: 7 }, (_, i) => `Jellyfin ${i}`)],
    ]);
    expect(await libraryValuesCount(db, [serverId], 'lib', both, HISTORY_COUNT_CAP)).toBe(await count('lib', 'client', 'jellyfin'));
    expect(await libraryValuesCount(db, [serverId], 'lib-b', both, HISTORY_COUNT_CAP)).toBeUndefined();
    // A column without totals (titles) leaves the count to the library's plays.
    expect(await libraryValuesCount(db, [serverId], 'lib', new Map([['item_name', ['Red Storm 0']]]), HISTORY_COUNT_CAP)).toBeUndefined();
  });

  it('has a word above the cap and one below it in a scope', async () => {
    const [above, below] = await Promise.all([
      queryHistory(db, serverId, request('storm', { kind: 'library', id: 'lib' }, 1)),
      queryHistory(db, serverId, request('storm', { kind: 'library', id: 'lib-b' }, 1)),
    ]);
    expect(above.total_exact).toBe(false);
    expect([below.total_exact, below.total > 0]).toEqual([true, true]);
  });
});
