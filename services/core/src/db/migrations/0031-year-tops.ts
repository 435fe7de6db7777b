import type { Migration } from './index.js';
import { reviewHistoryTriggerFunction, yearTopsBackfill } from '../../history/review-rollup-sql.js';

/**
 * The year in review's top items and series from one ranked list per year (issue 21, round two). The server's
 * tops walked the cards' twelve month lists (70–110 ms at 5 M plays: the sum of twelve lists bounds the keys not
 * met yet loosely) and a user's read that user's plays of the year (77–126 ms for the busiest user).
 *  - play_year_tops: plays and watched seconds per UTC year × item without a series (movies, tracks) or series
 *    (from its episodes), per user and for the server (user_id ''). A year in a zone is the UTC year plus or minus
 *    the plays between 1 January 00:00 UTC and the zone's 1 January (at most 14 hours at each end, from the
 *    history), as for the genres (0028).
 *  - play_year_tops_ranked: the server's rows of a year and kind by watched time (then plays, key), for the
 *    walk with a stopping rule (year-review-queries.ts); a user's rows of a year are few and read whole.
 *
 * Kept by the year in review's statement trigger on playback_history (0028's function, replaced here with the
 * tops added), in the statement that writes or deletes plays.
 */
export const yearTops: Migration = {
  name: '0031-year-tops',
  async up({ sql }) {
    // The backfill groups the whole history: longer than a request's timeout.
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
CREATE TABLE play_year_tops (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  user_id        text NOT NULL,
  year           smallint NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('item', 'series')),
  key            text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, user_id, year, kind, key)
);

${yearTopsBackfill()}

CREATE INDEX play_year_tops_ranked ON play_year_tops (server_id, year, kind, played_seconds DESC, plays DESC, key) WHERE user_id = '';
ANALYZE play_year_tops;
${reviewHistoryTriggerFunction(true)}`);
  },
};
