/*
 * The search dictionary's words (migration 0041): each term's value (history_search_terms) split at its spaces,
 * lowered. history_search_word_keys holds, per word, the (kind, key) of every term whose value has that word,
 * with whether one of those terms is sure; history_search_words lists each server's distinct words (trigram
 * indexed where pg_trgm exists). A word W without a space lies inside one word of any value that contains it, so
 * the terms holding W are found by looking W up among the few distinct words, then reading those words' keys from
 * one index in word order: the keys of a common word (`storm`: 11,513 terms at 5 M plays) come from a few index
 * pages instead of a trigram bitmap over every page of history_search_terms (docs/performance.md, "A common word
 * within a heavy user from the dictionary's words").
 *
 * Terms are never removed but by a rebuild, so the words only grow: a writer adds the words of the terms it
 * inserts, and clears a word's sure flag when it clears the flag of a term with that word. The flag may thus be
 * false where it could be true (as the terms' own), never the reverse: check:rollups compares both tables with
 * what the terms give (rollup-invariant.ts, levels search_word_keys and search_words).
 */

/** The two tables and their indexes (migration 0041; also what older migrations' tests add for today's writer). */
export const SEARCH_WORDS_TABLES_SQL = `
CREATE TABLE history_search_word_keys (
  server_id uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  word      text NOT NULL,
  kind      text NOT NULL,
  key       text NOT NULL,
  sure      boolean NOT NULL,
  -- The reader takes (kind, key, sure) of a word from this index alone.
  PRIMARY KEY (server_id, word, kind, key) INCLUDE (sure)
);
CREATE TABLE history_search_words (
  server_id uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  word      text NOT NULL,
  PRIMARY KEY (server_id, word)
);
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX history_search_words_trgm ON history_search_words USING gin (word gin_trgm_ops)';
  END IF;
END $$;`;

/** The tables in the order a rebuild fills them (ROLLUP_TABLES). */
export const SEARCH_WORD_TABLES = ['history_search_word_keys', 'history_search_words'] as const;

/** The non-empty words of a value expression: its lowered text split at each space (string_to_table needs PostgreSQL 14). */
const wordsOf = (value: string) => `(SELECT word FROM unnest(string_to_array(lower(${value}), ' ')) AS w (word) WHERE word <> '')`;

/**
 * Rows (server_id, word, kind, key, sure) of history_search_word_keys from term rows `terms` (server_id, kind,
 * value, key, sure): a word's key is sure when one of its terms with that word is.
 */
export function wordKeysFrom(terms: string): string {
  return `SELECT t.server_id, w.word, t.kind, t.key, bool_or(t.sure) AS sure
    FROM ${terms} AS t CROSS JOIN LATERAL ${wordsOf('t.value')} AS w
    GROUP BY 1, 2, 3, 4`;
}

/** Rows (server_id, word) of history_search_words from word key rows `wordKeys`. */
export const wordsFrom = (wordKeys: string) => `SELECT DISTINCT server_id, word FROM ${wordKeys} AS k`;

/**
 * CTEs (searched_word_keys, searched_words) of a writer's statement, given `rows`: the term rows it upserts
 * (server_id, kind, value, key, sure: the flag it writes) with `was_sure`, the term's flag before the statement
 * (NULL for a term it inserts). A new term adds its words; a term whose flag goes from true to false clears its
 * words' flags (at most one term of a key is sure at a time, so those words have no other sure term). Rows of
 * one word and key are combined first (a statement may change a row once); a word row already there keeps its
 * flag unless this one clears it.
 */
export function writeSearchWords(rows: string): string {
  return `searched_word_keys AS (
       INSERT INTO history_search_word_keys AS k (server_id, word, kind, key, sure)
       SELECT server_id, word, kind, key, bool_and(sure) FROM (
         SELECT r.server_id, w.word, r.kind, r.key, r.sure FROM ${rows} AS r CROSS JOIN LATERAL ${wordsOf('r.value')} AS w
         WHERE r.was_sure IS NULL OR (r.was_sure AND NOT r.sure)
       ) AS changed GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4
       ON CONFLICT (server_id, word, kind, key) DO UPDATE SET sure = false WHERE k.sure AND NOT EXCLUDED.sure
       RETURNING server_id, word
     ), searched_words AS (
       INSERT INTO history_search_words (server_id, word)
       SELECT DISTINCT server_id, word FROM searched_word_keys ORDER BY 2
       ON CONFLICT DO NOTHING
       RETURNING 1
     )`;
}

/**
 * Both word tables filled from history_search_terms as it is, each table named by `table` (the restore's staged
 * copies; by default the live tables: the migration's backfill and rebuilds, after the terms).
 */
export const fillSearchWords = (table: (name: string) => string = (name) => name) =>
  `INSERT INTO ${table('history_search_word_keys')} (server_id, word, kind, key, sure)
SELECT * FROM (${wordKeysFrom(table('history_search_terms'))}) AS k ORDER BY 1, 2, 3, 4;
INSERT INTO ${table('history_search_words')} (server_id, word) ${wordsFrom(table('history_search_word_keys'))};`;

export const SEARCH_WORDS_REBUILD_SQL = fillSearchWords();

/**
 * The keys (kind, key, sure) of every term holding `word` (no space in it) on servers `servers`, up to `limit`
 * rows; `pattern` is the bound parameter of the word's containment pattern (search-plan.ts containsPattern). A
 * key may come more than once (two of its words hold the word): the readers' lists take it either way.
 */
export function wordKeysHolding(servers: string, pattern: string, limit: number): string {
  return `SELECT k.kind, k.key, k.sure FROM history_search_words w
       JOIN history_search_word_keys k ON k.server_id = w.server_id AND k.word = w.word
       WHERE w.server_id = ANY(${servers}) AND w.word LIKE lower(${pattern})
       LIMIT ${limit}`;
}
