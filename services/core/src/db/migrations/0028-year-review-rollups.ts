import type { Migration } from './index.js';
import { genreRollupDelta, reviewHistoryTriggerFunction, reviewRollupsBackfill } from '../../history/review-rollup-sql.js';

/**
 * The year in review from rollups (issue 21): its genres and its longest binge read the year's plays (1.5 M at
 * 5 M plays: 1.4 s and 3.5 s).
 *  - play_genre_rollups: UTC month × genre, per user and for the server (user_id ''). A year in any zone is the
 *    UTC months of that year plus or minus the plays between 1 January 00:00 UTC and the zone's 1 January
 *    (at most 14 hours, from the history).
 *  - play_binge_runs: every run of two or more of a user's plays (see history/review-rollup-sql.ts): 0.85 M rows
 *    at 5 M plays.
 *
 * Both are kept by statement triggers on playback_history, like the cards' rollups (0018), so every writer and
 * deleter changes them in its own statement. Genres belong to items, not plays: triggers on item_genres apply
 * the plays of the items whose genres changed (and of the episodes of a series whose genres changed) again,
 * minus what they counted under the genres before the change.
 */
const history = `
${reviewHistoryTriggerFunction(false)}

CREATE TRIGGER playback_history_review_insert AFTER INSERT ON playback_history
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_review();
CREATE TRIGGER playback_history_review_update AFTER UPDATE ON playback_history
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_review();
CREATE TRIGGER playback_history_review_delete AFTER DELETE ON playback_history
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_review();`;

/**
 * The genres before the statement: those of the items concerned now, minus the rows it added, plus the rows it
 * removed. `added` and `removed` are transition tables (or empty relations).
 */
const PLAY_COLUMNS = 'h.id, h.server_id, h.user_id, h.item_id, h.series_id, h.started_at, h.played_seconds';

const genresBefore = (added: string, removed: string) => `
    WITH changed AS (
      SELECT DISTINCT server_id, item_id FROM (SELECT server_id, item_id FROM ${added} AS a UNION ALL SELECT server_id, item_id FROM ${removed} AS r) AS c
    ), plays AS MATERIALIZED (
      SELECT ${PLAY_COLUMNS} FROM playback_history h JOIN changed c ON h.server_id = c.server_id AND h.item_id = c.item_id
      UNION
      SELECT ${PLAY_COLUMNS} FROM playback_history h JOIN changed c ON h.server_id = c.server_id AND h.series_id = c.item_id
    ), concerned AS (
      SELECT DISTINCT server_id, item_id FROM plays UNION SELECT DISTINCT server_id, series_id FROM plays WHERE series_id IS NOT NULL
    ), genres_now AS MATERIALIZED (
      SELECT g.server_id, g.item_id, g.genre FROM item_genres g JOIN concerned c ON g.server_id = c.server_id AND g.item_id = c.item_id
    ), genres_before AS MATERIALIZED (
      SELECT server_id, item_id, genre FROM genres_now
      EXCEPT SELECT server_id, item_id, genre FROM ${added} AS a
      UNION SELECT server_id, item_id, genre FROM ${removed} AS r
    )`;

const genres = `
CREATE FUNCTION item_genres_to_review() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    ${regenre('(SELECT * FROM item_genres WHERE false)', 'removed_rows')}
  ELSIF TG_OP = 'UPDATE' THEN
    ${regenre('added_rows', 'previous_rows')}
  ELSE
    ${regenre('added_rows', '(SELECT * FROM item_genres WHERE false)')}
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER item_genres_review_insert AFTER INSERT ON item_genres
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION item_genres_to_review();
CREATE TRIGGER item_genres_review_update AFTER UPDATE ON item_genres
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION item_genres_to_review();
CREATE TRIGGER item_genres_review_delete AFTER DELETE ON item_genres
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION item_genres_to_review();`;

/** The plays of the changed items counted under the genres now, minus the same plays under the genres before. */
function regenre(added: string, removed: string): string {
  const now = genreRollupDelta('(SELECT *, 1 AS weight FROM plays)', 'genres_now');
  const before = genreRollupDelta('(SELECT *, -1 AS weight FROM plays)', 'genres_before');
  return `${genresBefore(added, removed)}
    INSERT INTO play_genre_rollups AS r (server_id, user_id, month, genre, plays, played_seconds)
    SELECT server_id, user_id, month, genre, sum(plays)::int, sum(played_seconds)::bigint FROM ((${now}) UNION ALL (${before})) AS d
    WHERE EXISTS (SELECT 1 FROM media_servers m WHERE m.id = d.server_id)
    GROUP BY 1, 2, 3, 4 HAVING sum(plays) <> 0 OR sum(played_seconds) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (server_id, user_id, month, genre) DO UPDATE SET plays = r.plays + EXCLUDED.plays, played_seconds = r.played_seconds + EXCLUDED.played_seconds;`;
}

export const yearReviewRollups: Migration = {
  name: '0028-year-review-rollups',
  async up({ sql }) {
    // The backfill reads the whole history (a sort of every play for the runs): longer than a request's timeout.
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
CREATE TABLE play_genre_rollups (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  user_id        text NOT NULL,
  month          timestamptz NOT NULL,
  genre          text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, user_id, month, genre)
);

CREATE TABLE play_binge_runs (
  server_id       uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  user_id         text NOT NULL,
  started_at      timestamptz NOT NULL,
  last_started_at timestamptz NOT NULL,
  ended_at        timestamptz NOT NULL,
  plays           integer NOT NULL,
  played_seconds  bigint NOT NULL,
  PRIMARY KEY (server_id, user_id, started_at)
);

${reviewRollupsBackfill('playback_history', 'item_genres', (table) => table, false)}

-- The longest binges first, of the server and of a user: the year's longest is among the first rows read.
CREATE INDEX play_binge_runs_longest ON play_binge_runs (server_id, played_seconds DESC, plays DESC, started_at);
CREATE INDEX play_binge_runs_user_longest ON play_binge_runs (server_id, user_id, played_seconds DESC, plays DESC, started_at);
${history}
${genres}`);
  },
};
