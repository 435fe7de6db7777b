import type { Migration } from './index.js';
import { reviewHistoryTriggerFunction, yearTopsBackfill } from '../../history/review-rollup-sql.js';

/**
 * The server's top items and series of a year in review from one ranked list per year (issue 21, round two):
 * they walked the cards' twelve month lists (70–110 ms at 5 M plays: the sum of twelve lists bounds the keys not
 * met yet loosely).
 *  - play_year_tops: the server's plays and watched seconds per UTC year × item without a series (movies,
 *    tracks) or series (from its episodes). A year in a zone is the UTC year plus or minus the plays between
 *    1 January 00:00 UTC and the zone's 1 January (at most 14 hours at each end, from the history), as for the
 *    genres (0028). 313,000 rows at 5 M plays. (Per user as well it held 3.7 M rows, 595 MB: a user plays most
 *    items once, so a user's rows were nearly the user's plays; a user's tops read those plays.)
 *  - play_year_tops_ranked: the rows of a year and kind by watched time (then plays, key), for the walk with a
 *    stopping rule (year-review-queries.ts).
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
  year           smallint NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('item', 'series')),
  key            text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, year, kind, key)
);

${yearTopsBackfill()}

CREATE INDEX play_year_tops_ranked ON play_year_tops (server_id, year, kind, played_seconds DESC, plays DESC, key);
ANALYZE play_year_tops;
${reviewHistoryTriggerFunction(true)}`);
  },
};
