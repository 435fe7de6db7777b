import type { Migration } from './index.js';
import { judgedSure } from '../../history/search-terms.js';

/**
 * The search dictionary's sure flags (history/search-terms.ts SURE_KINDS): a term is sure when every play of its
 * key in its kind holds its value, so that a search within a user counts those plays from the user's covering
 * index without judging each key against play_totals on every request (docs/performance.md, "A common word within
 * one user"). The terms are judged here once against play_totals (the judgement the reader made per request),
 * then kept by the writers. The table is filled again rather than updated, so that it is not left with a dead
 * version of most of its rows. The partial index finds a key's sure term when a write adds another value; the
 * trigram index (when pg_trgm exists, as for the values in 0025) lets a user's count read the word's terms with
 * their flags at once, without joining the values (11,516 terms of `storm` at 5 M plays: 5 ms instead of a hash
 * join over all 195,806 terms, 35-70 ms).
 */
export const searchTermsSure: Migration = {
  name: '0036-search-terms-sure',
  async up({ sql }) {
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
CREATE TEMPORARY TABLE search_terms_0036 ON COMMIT DROP AS SELECT server_id, kind, key, value, plays FROM history_search_terms;
TRUNCATE history_search_terms;
ALTER TABLE history_search_terms ADD COLUMN sure boolean NOT NULL DEFAULT false;
INSERT INTO history_search_terms (server_id, kind, key, value, plays, sure)
SELECT * FROM (${judgedSure('search_terms_0036', 'play_totals')}) AS judged ORDER BY server_id, kind, value, key;
CREATE INDEX history_search_terms_sure ON history_search_terms (server_id, kind, key) WHERE sure;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX history_search_terms_trgm ON history_search_terms USING gin (lower(value) gin_trgm_ops)';
  END IF;
END $$;
`);
  },
};
