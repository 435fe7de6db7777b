import type { Migration } from './index.js';

/**
 * Indexes a restore swaps its tables in without, to build right after (CREATE INDEX CONCURRENTLY): the
 * history's trigram search index takes as long to build as all its other indexes together, and search is
 * correct without it, only slower. A row is written in the swap's transaction and deleted once the index is
 * built, so a process killed in between leaves the row, and the next start builds the index.
 */
export const deferredIndexes: Migration = {
  name: '0009-deferred-indexes',
  async up({ sql }) {
    await sql(`
CREATE TABLE deferred_indexes (
  name       text PRIMARY KEY,
  table_name text NOT NULL,
  definition text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`);
  },
};
