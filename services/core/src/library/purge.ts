import type { Database } from '../db/database.js';
import { deletePlays } from '../history/delete-plays.js';
import { forgetLibraryContent } from './library-queries.js';

/**
 * Purges of SPEC.md §7 (library, library items, item), with or without their activity. Items and plays go in
 * one transaction, and plays through deletePlays, so statistics stay exact. Without activity the history is
 * kept: it carries its own names, so pages that show it still read well.
 */
export interface PurgeResult {
  items: number;
  plays: number;
  libraries: number;
}

export async function purgeItem(db: Database, serverId: string, itemId: string, withActivity: boolean): Promise<PurgeResult> {
  return thenForget(
    db.sequelize.transaction(async (transaction) => {
      const removed = await db.query<{ id: string }>(
        `DELETE FROM items WHERE server_id = $1 AND (id = $2 OR series_id = $2 OR season_id = $2 OR parent_id = $2) RETURNING id`,
        [serverId, itemId],
        transaction,
      );
      const plays = withActivity
        ? await deletePlays(db, serverId, 'h.item_id = $2 OR h.series_id = $2 OR h.season_id = $2', [itemId], transaction)
        : 0;
      return { items: removed.length, plays, libraries: 0 };
    }),
  );
}

export async function purgeLibrary(
  db: Database,
  serverId: string,
  libraryId: string,
  options: { withActivity: boolean; keepLibrary: boolean },
): Promise<PurgeResult> {
  return thenForget(
    db.sequelize.transaction(async (transaction) => {
      const removed = await db.query<{ count: number }>(
        `WITH gone AS (DELETE FROM items WHERE server_id = $1 AND library_id = $2 RETURNING 1) SELECT count(*)::int AS count FROM gone`,
        [serverId, libraryId],
        transaction,
      );
      const libraries = options.keepLibrary
        ? []
        : await db.query(`DELETE FROM libraries WHERE server_id = $1 AND id = $2 RETURNING id`, [serverId, libraryId], transaction);
      const plays = options.withActivity ? await deletePlays(db, serverId, 'h.library_id = $2', [libraryId], transaction) : 0;
      return { items: removed[0]?.count ?? 0, plays, libraries: libraries.length };
    }),
  );
}

/** Content counts are recomputed after the purge is committed, not from a snapshot taken before it. */
async function thenForget<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } finally {
    forgetLibraryContent();
  }
}

/** Deletes plays by history id (the activity table's multi-select). */
export async function deletePlaybackActivity(db: Database, serverId: string, ids: number[]): Promise<number> {
  return deletePlays(db, serverId, 'h.id = ANY($2::bigint[])', [ids]);
}
