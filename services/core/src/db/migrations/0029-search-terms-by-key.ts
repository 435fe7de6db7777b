import type { Migration } from './index.js';

/**
 * The dictionary's terms by key (issue 20, round two): a search within one user counts the plays of the keys
 * whose every value contains the word from the user's covering index alone (history/search-plan.ts
 * userSearchRows), and asks, for each candidate key, whether it has a value without the word: one descent of
 * this index per key, its values and plays included (no table read). An index only: every writer of the
 * dictionary keeps it.
 */
export const searchTermsByKey: Migration = {
  name: '0029-search-terms-by-key',
  async up({ sql }) {
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`CREATE INDEX history_search_terms_key ON history_search_terms (server_id, kind, key) INCLUDE (value, plays)`);
  },
};
