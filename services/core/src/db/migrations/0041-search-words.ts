import { SEARCH_WORDS_REBUILD_SQL, SEARCH_WORDS_TABLES_SQL } from '../../history/search-words.js';
import type { Migration } from './index.js';

/**
 * The search dictionary's words (history/search-words.ts): each term's value split at its spaces, with the keys
 * of the terms that hold each word, filled from history_search_terms here (not from the history: a few hundred
 * thousand terms at millions of plays) and kept by the writers since. A word without a space within a heavy user
 * finds its keys from them (history/user-search-count.ts).
 */
export const searchWords: Migration = {
  name: '0041-search-words',
  async up({ sql }) {
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
${SEARCH_WORDS_TABLES_SQL}
${SEARCH_WORDS_REBUILD_SQL}
ANALYZE history_search_word_keys, history_search_words;
`);
  },
};
