import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { REBUILD_ROLLUPS_SQL } from './rollup-sql.js';
import { queryHistory, type HistoryRequest, type SearchTuning } from './history-query.js';
import { deletePlays } from './delete-plays.js';
import { recordPlays, type PlayToRecord } from './record-plays.js';
import { findRollupDifferences } from './rollup-invariant.js';

/**
 * The dictionary's sure flags (search-terms.ts SURE_KINDS, migration 0036): a term is sure only while every play
 * of its key (in its kind) holds its value, and a search within a user counts a sure key's plays without reading
 * them. Writes here come one statement at a time, so that a key renamed or emptied by a later write must clear a
 * flag an earlier write set; the rollup invariant (level search_sure) and the counts within each user against a
 * plain scan show a flag left wrong.
 */
describe('search terms sure flags', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const base = Date.parse('2026-06-01T00:00:00Z');
  let n = 0;

  const play = (fields: Partial<PlayToRecord> & { itemId: string; itemName: string }): PlayToRecord => {
    n += 1;
    return {
      serverId,
      playKey: `p${n}`,
      source: 'monitor',
      userId: `u${n % 3}`,
      userName: `User ${n % 3}`,
      itemType: 'Movie',
      libraryId: 'lib',
      client: 'Roku',
      deviceName: 'TV',
      remoteEndPoint: '10.9.0.1',
      playMethod: 'DirectPlay',
      startedAt: new Date(base + n * 3_600_000),
      playedSeconds: 60,
      ...fields,
    };
  };
  /** Each call one writeHistory statement. */
  const write = async (...plays: PlayToRecord[]) => {
    expect(await recordPlays(db, plays)).toBe(plays.length);
  };

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    // Many plays of a few films holding the word: its candidates hold more plays than any user, and a user more
    // than twice its values, so that each user's count is taken from the user's index (history-query.ts byUserIndex).
    for (let i = 0; i < 6; i += 1)
      await write(...Array.from({ length: 30 }, (_, j) => play({ itemId: `calm-${j % 3}`, itemName: `Calm Storm ${j % 3}` })));
    await write(play({ itemId: 'a', itemName: 'Storm One' }));
    await write(play({ itemId: 'a', itemName: 'Storm One' }), play({ itemId: 'a', itemName: 'Storm One' }));
    // Renamed by a later write: the first name's flag must go.
    await write(play({ itemId: 'b', itemName: 'Storm Two' }), play({ itemId: 'b', itemName: 'Storm Two' }));
    await write(play({ itemId: 'b', itemName: 'Two' }));
    // Emptied by a later write (a play that no term holds).
    await write(play({ itemId: 'c', itemName: 'Storm Three' }));
    await write(play({ itemId: 'c', itemName: '' }));
    // Empty first, named after: the named term must not be sure.
    await write(play({ itemId: 'c2', itemName: '' }));
    await write(play({ itemId: 'c2', itemName: 'Storm Four' }));
    // A series name missing in a later episode's play, and a series name without a series id, missing later.
    await write(play({ itemId: 'e1', itemName: 'Pilot', itemType: 'Episode', seriesId: 's1', seriesName: 'Storm Show' }));
    await write(play({ itemId: 'e2', itemName: 'Second', itemType: 'Episode', seriesId: 's1' }));
    await write(play({ itemId: 'd', itemName: 'Orphan', itemType: 'Episode', seriesName: 'Storm Orphans' }));
    await write(play({ itemId: 'd', itemName: 'Orphan', itemType: 'Episode' }));
    // A user renamed by a later write.
    await write(play({ itemId: 'x1', itemName: 'Plain', userId: 'u9', userName: 'Storm Chaser' }));
    await write(play({ itemId: 'x1', itemName: 'Plain', userId: 'u9', userName: 'Chaser' }));
    // Two names in one statement.
    await write(play({ itemId: 'f', itemName: 'Storm Five' }), play({ itemId: 'f', itemName: 'Five' }));
    // Every play deleted, then named anew: the new name's term is sure, the old one's cleared.
    await write(play({ itemId: 'g', itemName: 'Gale' }), play({ itemId: 'g', itemName: 'Gale' }));
    await deletePlays(db, serverId, `h.item_id = 'g'`, []);
    await write(play({ itemId: 'g', itemName: 'Storm Gale' }));
    // Some plays of a renamed key deleted: its flags stay false (they may; the check only reports a wrong true).
    await deletePlays(db, serverId, `h.item_id = 'b' AND h.item_name = 'Two'`, []);
  }, 120_000);
  afterAll(async () => {
    await close();
  });

  const flags = async () =>
    Object.fromEntries(
      (
        await db.query<{ kind: string; key: string; value: string; sure: boolean }>(
          `SELECT kind, key, value, sure FROM history_search_terms
           WHERE server_id = $1 AND plays > 0 AND kind IN ('item', 'series', 'series_item', 'user') AND value ILIKE '%storm%'
             AND key NOT LIKE 'calm-%' ORDER BY 1, 2, 3`,
          [serverId],
        )
      ).map((row) => [`${row.kind} ${row.key} ${row.value}`, row.sure]),
    );

  it('keeps a term sure only while every play of its key holds it', async () => {
    expect(await flags()).toEqual({
      'item a Storm One': true,
      'item b Storm Two': false,
      'item c Storm Three': false,
      'item c2 Storm Four': false,
      'item f Storm Five': false,
      'item g Storm Gale': true,
      'series s1 Storm Show': false,
      'series_item d Storm Orphans': false,
      'user u9 Storm Chaser': false,
    });
    expect(await findRollupDifferences(db, serverId)).toEqual([]);
  });

  it('counts and pages within each user as a plain scan does', async () => {
    for (const word of ['storm', 'storm one', 'two', 'chaser', 'orphan', 'gale', 'zzqx']) {
      // 'nobody' has no play: a word that matches nothing had an empty key condition there (a syntax error).
      for (const userId of ['u0', 'u1', 'u2', 'u9', 'nobody']) await expectUser(db, serverId, word, userId);
    }
  });

  it('reports a sure flag that a play contradicts', async () => {
    await db.query(`BEGIN`);
    try {
      await db.query(`UPDATE history_search_terms SET sure = true WHERE server_id = $1 AND kind = 'item' AND key = 'c'`, [serverId]);
      const differences = await findRollupDifferences(db, serverId);
      expect(differences.map(({ level, key }) => `${level} ${key}`)).toEqual(['search_sure item c Storm Three']);
    } finally {
      await db.query(`ROLLBACK`);
    }
  });

  it('judges the flags the same way when the rollups are rebuilt', async () => {
    const before = await flags();
    await db.query(REBUILD_ROLLUPS_SQL);
    // The rebuild judges from the whole history: the renamed key whose other name's plays were deleted is sure again.
    expect(await flags()).toEqual({ ...before, 'item b Storm Two': true });
    expect(await findRollupDifferences(db, serverId)).toEqual([]);
  });
});

/**
 * Random histories written and deleted in random steps (names from a small set that holds the word, another
 * name, an empty one): after every history the flags satisfy the invariant and each user's count of the word
 * is the plain scan's.
 */
describe('search terms sure flags under random writes (fast-check)', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
  }, 60_000);
  afterAll(async () => {
    await close();
  });

  it('keeps the invariant and the counts', async () => {
    const names = ['Storm', 'Storm Front', 'Calm', ''];
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('write' as const),
        plays: fc.array(
          fc.record({
            user: fc.integer({ min: 0, max: 1 }),
            item: fc.integer({ min: 0, max: 3 }),
            name: fc.constantFrom(...names),
            series: fc.option(fc.constantFrom(...names), { nil: undefined }),
            episode: fc.boolean(),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
      fc.record({ kind: fc.constant('delete' as const), item: fc.integer({ min: 0, max: 3 }), name: fc.constantFrom(...names) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        run += 1;
        await db.query(`DELETE FROM playback_history WHERE server_id = $1`, [serverId]);
        await db.query(REBUILD_ROLLUPS_SQL);
        let n = 0;
        for (const s of steps) {
          if (s.kind === 'delete') {
            await deletePlays(db, serverId, `h.item_id = $2 AND h.item_name = $3`, [`i${s.item}`, s.name]);
            continue;
          }
          const plays = s.plays.map((p): PlayToRecord => ({
            serverId,
            playKey: `r${run}-${(n += 1)}`,
            source: 'monitor',
            userId: `u${p.user}`,
            userName: `User ${p.user}`,
            itemId: `i${p.item}`,
            itemName: p.name,
            itemType: p.episode ? 'Episode' : 'Movie',
            seriesId: p.episode ? `s${p.item % 2}` : undefined,
            seriesName: p.series,
            libraryId: 'lib',
            playMethod: 'DirectPlay',
            startedAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000),
            playedSeconds: 10,
          }));
          await recordPlays(db, plays);
          // Plays of two films holding the word, so that each user's count is taken from the user's index (the
          // word's candidates hold more plays than a user, who has more than twice its values).
          await recordPlays(
            db,
            Array.from({ length: 16 }, (_, j) => ({
              ...plays[0]!,
              playKey: `r${run}-${(n += 1)}`,
              userId: `u${j % 2}`,
              userName: `User ${j % 2}`,
              itemId: `filler-${j % 2}`,
              itemName: `Storm Filler ${j % 2}`,
              seriesId: undefined,
              seriesName: undefined,
            })),
          );
        }
        expect(await findRollupDifferences(db, serverId)).toEqual([]);
        for (const userId of ['u0', 'u1']) {
          for (const word of ['storm', 'front']) await expectUser(db, serverId, word, userId, false);
        }
      }),
      { numRuns: 40, seed: 20_36 },
    );
  }, 300_000);
});

/**
 * The count (and with `pages` every page) of `word` within user `userId` against a plain scan: planned, planned with
 * a first look-up of one value (the word's values then unknown: the count is taken from the user's index), and
 * walked as a small user is.
 */
async function expectUser(db: Database, serverId: string, word: string, userId: string, pages = true) {
  // These users are small enough to be walked without a plan (WALKED_USER_PLAYS): the plans are forced as well.
  const tunings: SearchTuning[] = [
    { walkedUserPlays: 0 },
    { walkedUserPlays: 0, earlyCount: false },
    { walkedUserPlays: 0, lookupTerms: 1, earlyCount: false },
    // The index count with the word's terms read in its counting statement, not as values (user-search-count.ts).
    { walkedUserPlays: 0, keysAsValues: false },
    { walkedUserPlays: 0, earlyCount: false, keysAsValues: false },
    // Every user's plays counted in two halves, as a heavy user's are.
    { walkedUserPlays: 0, halvedUserPlays: 0 },
    // A rare word's candidates read for the user from their own indexes (0040), and never.
    { walkedUserPlays: 0, earlyCount: false, userKeys: 'always' },
    { walkedUserPlays: 0, userKeys: 'always' },
    { walkedUserPlays: 0, earlyCount: false, userKeys: 'never' },
    {},
  ];
  for (const tuning of tunings) {
    await expectUserWith(db, serverId, word, userId, pages, tuning);
  }
}

async function expectUserWith(db: Database, serverId: string, word: string, userId: string, pages: boolean, tuning: SearchTuning) {
  const rows = await db.query<{ id: number }>(
    `SELECT id FROM playback_history WHERE server_id = $1 AND user_id = $3 AND (coalesce(user_name, '') || ' ' || coalesce(series_name, '')
         || ' ' || item_name || ' ' || coalesce(client, '') || ' ' || coalesce(device_name, '') || ' ' || coalesce(remote_end_point, '')) ILIKE $2
       ORDER BY started_at DESC, id DESC`,
    [serverId, `%${word}%`, userId],
  );
  const at = (page: number): HistoryRequest => ({
    scope: { kind: 'user', id: userId },
    page,
    size: 25,
    search: word,
    sort: 'ActivityDateInserted',
    desc: true,
    filters: {},
  });
  const first = await queryHistory(db, serverId, at(1), undefined, tuning);
  expect([first.total, first.total_exact], `${word} ${userId} ${JSON.stringify(tuning)}`).toEqual([rows.length, true]);
  if (!pages) return;
  const ids: number[] = [];
  for (let page = 1; page <= first.pages; page += 1) {
    const answer = page === 1 ? first : await queryHistory(db, serverId, at(page), undefined, tuning);
    for (const row of answer.results) ids.push(...(row.results.length > 0 ? row.results : [row]).map((p) => p.Id));
  }
  expect(ids, `${word} ${userId} ${JSON.stringify(tuning)}`).toEqual(rows.map((row) => row.id));
}
