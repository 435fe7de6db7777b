import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { PlayIds } from './history-events.js';
import { rollupDelta, totalsDelta } from './rollup-sql.js';
import { writeSearchTerms } from './search-terms.js';

/**
 * Deletes history rows and, in the same statement, subtracts them from play_rollups, play_totals and the
 * search's dictionary (search-terms.ts), so the statistics and the search stay exact after a deletion or a purge. `where` is a condition on playback_history aliased `h`
 * with bound parameters ($1 is always the server id). Returns how many plays were deleted; `affected`, when
 * given, receives the ids of the deleted plays (for the 'history' event sent after the commit).
 *
 * Rollup rows that reach zero are kept (queries ignore them): deleting them would need a second pass and
 * could race with a play being recorded into the same quarter hour.
 */
export async function deletePlays(
  db: Database,
  serverId: string,
  where: string,
  bind: unknown[],
  transaction?: Transaction,
  affected?: PlayIds[],
): Promise<number> {
  const [row] = await db.query<{ deleted: number; plays: PlayIds[] | null }>(
    `WITH deleted AS (
       DELETE FROM playback_history h WHERE h.server_id = $1 AND (${where})
       RETURNING server_id, started_at, user_id, item_id, series_id, season_id, library_id, client, play_method, played_seconds,
         user_name, item_name, series_name, device_name, remote_end_point
     ), rolled_up AS (
       UPDATE play_rollups r SET plays = r.plays - d.plays, played_seconds = r.played_seconds - d.played_seconds
       FROM (${rollupDelta('deleted')}) AS d
       WHERE r.server_id = d.server_id AND r.bucket = d.bucket AND r.library_id = d.library_id AND r.play_method = d.play_method
       RETURNING 1
     ), totalled AS (
       UPDATE play_totals t SET plays = t.plays - d.plays, played_seconds = t.played_seconds - d.played_seconds
       FROM (${totalsDelta('deleted')}) AS d
       WHERE t.server_id = d.server_id AND t.scope = d.scope AND t.key = d.key
       RETURNING 1
     ), ${writeSearchTerms('(SELECT *, -1 AS weight FROM deleted)', false)}
     SELECT (SELECT count(*) FROM deleted)::int AS deleted, (SELECT count(*) FROM rolled_up)::int AS rollup_rows,
       (SELECT count(*) FROM totalled)::int AS total_rows, (SELECT count(*) FROM searched_terms)::int AS term_rows,
       (SELECT count(*) FROM searched_values)::int AS value_rows,
       (SELECT json_agg(json_build_object('userId', user_id, 'itemId', item_id, 'seriesId', series_id, 'seasonId', season_id,
          'libraryId', library_id)) FROM (SELECT DISTINCT user_id, item_id, series_id, season_id, library_id FROM deleted) AS ids) AS plays`,
    [serverId, ...bind],
    transaction,
  );
  if (affected) affected.push(...(row?.plays ?? []));
  return row?.deleted ?? 0;
}
