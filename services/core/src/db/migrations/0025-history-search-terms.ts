import { SEARCH_TERMS_BACKFILL_SQL } from '../../history/search-terms.js';
import type { Migration } from './index.js';

/** The dictionary's two tables (also what older migrations' tests add for today's writer: writer-schema.ts). */
export const SEARCH_DICTIONARY_TABLES_SQL = `
-- Each searched value of a field (kind), with its plays: what the search's trigram index covers.
CREATE TABLE history_search_values (
  server_id uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  kind      text NOT NULL,
  value     text NOT NULL,
  plays     integer NOT NULL,
  PRIMARY KEY (server_id, kind, value)
);
-- A piece of the search word that starts or ends a value (history/search-plan.ts) is looked up in these.
CREATE INDEX history_search_values_prefix ON history_search_values (server_id, lower(value) text_pattern_ops);
CREATE INDEX history_search_values_suffix ON history_search_values (server_id, reverse(lower(value)) text_pattern_ops);
-- The keys that reach a value's plays (a user id, an item or series id, a client, device or address).
CREATE TABLE history_search_terms (
  server_id uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  kind      text NOT NULL,
  value     text NOT NULL,
  key       text NOT NULL,
  plays     integer NOT NULL,
  PRIMARY KEY (server_id, kind, value, key)
);`;

/**
 * The history search's dictionary (history/search-terms.ts): the distinct searchable values per field with their
 * play counts, and the keys that reach their plays, filled from the history once here and kept by every writer
 * since. The search looks its word up among these values (a few hundred thousand at millions of plays, trigram
 * indexed when pg_trgm exists) instead of in a trigram index over every play, so the history's trigram index
 * (history_search_trgm of 0004, about 78 bytes per play) goes, with any restore's deferred build of it.
 */
export const historySearchTerms: Migration = {
  name: '0025-history-search-terms',
  async up({ sql }) {
    // A pass over the whole history at millions of plays: no statement timeout (the application's 60 s).
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`SET LOCAL maintenance_work_mem = '256MB'`);
    await sql(`
${SEARCH_DICTIONARY_TABLES_SQL}

${SEARCH_TERMS_BACKFILL_SQL}

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX history_search_values_trgm ON history_search_values USING gin (lower(value) gin_trgm_ops)';
  END IF;
END $$;

DROP INDEX IF EXISTS history_search_trgm;
DELETE FROM deferred_indexes WHERE name = 'history_search_trgm';
ANALYZE history_search_values, history_search_terms;
`);
  },
};
