import type { Migration } from './index.js';

/**
 * Indexes whose every reader has another index with the same leading columns (measured with EXPLAIN of every
 * SQL catalog statement on the seeded history; see docs/performance.md "Storage"):
 *  - history_started (server_id, started_at DESC): history_started_cover (server_id, started_at, id) INCLUDE …;
 *  - history_user_started (server_id, user_id, started_at DESC): history_user_cover (server_id, user_id, started_at, id);
 *  - history_library_started (server_id, library_id, started_at DESC): history_library_cover (same, plus id).
 *    A B-tree reads backwards as fast as forwards, so DESC adds nothing.
 *  - play_rollups_library (server_id, library_id, bucket): its one reader, a library's totals over the last
 *    hours, reads play_rollups_by_library (0013: one row per quarter hour and library) instead.
 * IF EXISTS: an index another migration already dropped is no error.
 */
export const redundantHistoryIndexes: Migration = {
  name: '0023-redundant-history-indexes',
  async up({ sql }) {
    await sql(`
DROP INDEX IF EXISTS history_started;
DROP INDEX IF EXISTS history_user_started;
DROP INDEX IF EXISTS history_library_started;
DROP INDEX IF EXISTS play_rollups_library;
`);
  },
};
