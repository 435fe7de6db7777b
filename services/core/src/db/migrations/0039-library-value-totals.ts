import type { Migration } from './index.js';
import { LIBRARY_VALUE_SCOPES, libraryValueParts } from '../../history/rollup-sql.js';

/** play_totals' check of its scopes with the library value scopes allowed (also what migration tests give older schemas). */
export const PLAY_TOTALS_SCOPE_CHECK_SQL = `ALTER TABLE play_totals DROP CONSTRAINT play_totals_scope_check,
  ADD CONSTRAINT play_totals_scope_check CHECK (scope IN (${['user', 'item', 'library', ...Object.values(LIBRARY_VALUE_SCOPES)]
    .map((scope) => `'${scope}'`)
    .join(', ')}))`;

/**
 * play_totals gains the plays of each client and each device within each library (rollup-sql.ts
 * LIBRARY_VALUE_SCOPES), kept by every writer of the history through totalsDelta. A library's search for a word
 * that lies in clients or devices (`android`) counted its matches by reading the library's plays up to the cap
 * (about 100,000 at 5 M plays, 40–60 ms); those totals answer it in one look-up. A few hundred rows at 5 M plays
 * (libraries × clients and devices). The backfill reads the history once and sets each row to what it holds (a
 * row a writer already keeps, as in the migration tests, takes the same value).
 */
export const libraryValueTotals: Migration = {
  name: '0039-library-value-totals',
  async up({ sql }) {
    await sql(`
${PLAY_TOTALS_SCOPE_CHECK_SQL};
INSERT INTO play_totals (server_id, scope, key, plays, played_seconds)
SELECT server_id, scope, key, sum(w)::int, sum(w * played_seconds)::bigint FROM (
  ${libraryValueParts('playback_history')}
) AS parts (server_id, scope, key, played_seconds, w) GROUP BY server_id, scope, key
ON CONFLICT (server_id, scope, key) DO UPDATE SET plays = EXCLUDED.plays, played_seconds = EXCLUDED.played_seconds;`);
  },
};
