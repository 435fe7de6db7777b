/**
 * user_last_plays: per server and user, the user's last play (newest start, then highest id) with the fields
 * the users table shows. Reading it from the history took one index descent and one heap page per user (500 at
 * 5 M plays: 93–144 ms when those pages were cold); the table is a few pages.
 *
 * Kept by statement triggers on playback_history (migration 0035): an insert replaces a user's row when it is
 * newer; an update or delete looks up the last play again for the users it touched (one index descent each on
 * history_user_cover). Loads that bypass the triggers recount it: REBUILD_ROLLUPS_SQL, a restore's swap.
 */

const FIELDS = 'history_id, started_at, item_id, item_name, series_name, client';

/** The newest play per user among `rows` (playback_history's columns). */
const newestOf = (rows: string) => `
SELECT DISTINCT ON (server_id, user_id) server_id, user_id, id AS history_id, started_at, item_id, item_name, series_name, client
FROM ${rows} AS r ORDER BY server_id, user_id, started_at DESC, id DESC`;

/** Inserted plays: a user's row changes only to a newer play. */
export const addUserLastPlays = (rows: string) => `
INSERT INTO user_last_plays AS u (server_id, user_id, ${FIELDS})
SELECT server_id, user_id, ${FIELDS} FROM (${newestOf(rows)}) AS n ORDER BY server_id, user_id
ON CONFLICT (server_id, user_id) DO UPDATE SET ${FIELDS.split(', ')
  .map((f) => `${f} = EXCLUDED.${f}`)
  .join(', ')}
WHERE (EXCLUDED.started_at, EXCLUDED.history_id) > (u.started_at, u.history_id);`;

/**
 * The users in `users` (server_id, user_id) get their last play looked up in the history again (after an update
 * or delete, whose rows may have been someone's last play); users left without plays lose their row.
 */
export const recountUserLastPlays = (users: string) => `
WITH touched AS (SELECT DISTINCT server_id, user_id FROM ${users} AS t),
last AS (
  SELECT t.server_id, t.user_id, h.id AS history_id, h.started_at, h.item_id, h.item_name, h.series_name, h.client
  FROM touched t CROSS JOIN LATERAL (
    SELECT id, started_at, item_id, item_name, series_name, client FROM playback_history p
    WHERE p.server_id = t.server_id AND p.user_id = t.user_id ORDER BY started_at DESC, id DESC LIMIT 1
  ) AS h
), gone AS (
  DELETE FROM user_last_plays u USING touched t
  WHERE u.server_id = t.server_id AND u.user_id = t.user_id AND NOT EXISTS (SELECT 1 FROM last l WHERE l.server_id = t.server_id AND l.user_id = t.user_id)
)
INSERT INTO user_last_plays AS u (server_id, user_id, ${FIELDS})
SELECT server_id, user_id, ${FIELDS} FROM last ORDER BY server_id, user_id
ON CONFLICT (server_id, user_id) DO UPDATE SET ${FIELDS.split(', ')
  .map((f) => `${f} = EXCLUDED.${f}`)
  .join(', ')};`;

/**
 * Empties and recounts the table: every user with a play has a play_totals row (kept with the history), so one
 * lookup per such user, not a pass over the history. Run it after play_totals is right, in the same transaction.
 */
export const RECOUNT_USER_LAST_PLAYS_SQL = `DELETE FROM user_last_plays;
${recountUserLastPlays(`(SELECT server_id, key AS user_id FROM play_totals WHERE scope = 'user')`)}`;

/** The expected rows, from the history itself (the rollup invariant). */
export const userLastPlaysFrom = (history: string) => newestOf(history);
