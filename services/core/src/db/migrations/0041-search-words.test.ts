import { describe, expect, it } from 'vitest';
import { recordPlays, type PlayToRecord } from '../../history/record-plays.js';
import { findRollupDifferences } from '../../history/rollup-invariant.js';
import { beforeMigration } from '../../test-support/migration-test.js';
import { addSearchWords, removeSearchWords } from '../../test-support/writer-schema.js';
import { searchWords } from './0041-search-words.js';

describe("migration 0041: the search dictionary's words", () => {
  const setting = beforeMigration(searchWords);
  const { serverId } = setting;

  const play = (i: number, itemName: string, overrides: Partial<PlayToRecord> = {}): PlayToRecord => ({
    serverId,
    playKey: `p${i}`,
    source: 'monitor',
    userId: `u${i % 3}`,
    userName: `User ${i % 3}`,
    itemId: `i${i % 4}`,
    itemName,
    playMethod: 'DirectPlay',
    startedAt: new Date(Date.UTC(2026, 0, 1 + i, 12)),
    playedSeconds: 60,
    ...overrides,
  });
  const wordKeys = async () =>
    (
      await setting
        .db()
        .query<{ word: string; kind: string; key: string; sure: boolean }>(
          `SELECT word, kind, key, sure FROM history_search_word_keys WHERE server_id = $1 AND kind = 'item' ORDER BY 1, 2, 3`,
          [serverId],
        )
    ).map(({ word, key, sure }) => `${word} ${key} ${sure}`);

  it('fills the words from the terms, flags included, and the writers keep them after', async () => {
    const db = setting.db();
    // Today's writer keeps the words: their tables are there while the plays are written, then gone.
    await addSearchWords(db);
    await recordPlays(db, [
      play(0, 'Storm Front'),
      play(1, 'Storm Front', { itemId: 'i0' }),
      play(2, 'The  Calm'),
      // i3 renamed between two plays: neither of its terms is sure.
      play(3, 'Eye of the Storm'),
      play(7, 'Eye of a Storm'),
    ]);
    await removeSearchWords(db);
    await searchWords.up(setting.context());
    expect(await wordKeys()).toEqual([
      'a i3 false',
      'calm i2 true',
      'eye i3 false',
      'front i0 true',
      'of i3 false',
      'storm i0 true',
      'storm i3 false',
      'the i2 true',
      'the i3 false',
    ]);
    expect(await findRollupDifferences(db, serverId)).toEqual([]);
    // i0 renamed after the migration: its words' flags are cleared, the new name's words come.
    await recordPlays(db, [play(4, 'Storm Front II', { itemId: 'i0' })]);
    expect((await wordKeys()).filter((row) => row.includes(' i0 '))).toEqual(['front i0 false', 'ii i0 false', 'storm i0 false']);
    expect(await findRollupDifferences(db, serverId)).toEqual([]);
    await setting.applyLater();
  });
});
