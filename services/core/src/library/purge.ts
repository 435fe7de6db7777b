import type { Database } from '../db/database.js';
import type { EventBus } from '../bus/event-bus.js';
import { deletePlays } from '../history/delete-plays.js';
import { historyChange, publishHistoryChange, type PlayIds } from '../history/history-events.js';
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

export async function purgeItem(
  db: Database,
  serverId: string,
  itemId: string,
  withActivity: boolean,
  bus?: EventBus,
): Promise<PurgeResult> {
  const affected: PlayIds[] = [];
  return thenForget(
    bus,
    () => historyChange(serverId, affected),
    db.sequelize.transaction(async (transaction) => {
      const removed = await db.query<{ id: string }>(
        `DELETE FROM items WHERE server_id = $1 AND (id = $2 OR series_id = $2 OR season_id = $2 OR parent_id = $2) RETURNING id`,
        [serverId, itemId],
        transaction,
      );
      const plays = withActivity
        ? await deletePlays(db, serverId, 'h.item_id = $2 OR h.series_id = $2 OR h.season_id = $2', [itemId], transaction, affected)
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
  bus?: EventBus,
): Promise<PurgeResult> {
  const affected: PlayIds[] = [];
  return thenForget(
    bus,
    () => historyChange(serverId, affected),
    db.sequelize.transaction(async (transaction) => {
      const removed = await db.query<{ count: number }>(
        `WITH gone AS (DELETE FROM items WHERE server_id = $1 AND library_id = $2 RETURNING 1) SELECT count(*)::int AS count FROM gone`,
        [serverId, libraryId],
        transaction,
      );
      const libraries = options.keepLibrary
        ? []
        : await db.query(`DELETE FROM libraries WHERE server_id = $1 AND id = $2 RETURNING id`, [serverId, libraryId], transaction);
      const plays = options.withActivity ? await deletePlays(db, serverId, 'h.library_id = $2', [libraryId], transaction, affected) : 0;
      return { items: removed[0]?.count ?? 0, plays, libraries: libraries.length };
    }),
  );
}

/**
 * Content counts are recomputed after the purge is committed, not from a snapshot taken before it; browsers
 * hear of the deleted plays after the commit too.
 */
async function thenForget<T>(bus: EventBus | undefined, change: () => ReturnType<typeof historyChange>, work: Promise<T>): Promise<T> {
  try {
    const result = await work;
    if (bus) await publishHistoryChange(bus, change());
    return result;
  } finally {
    forgetLibraryContent();
  }
}

/** Deletes plays by history id (the activity table's multi-select). */
export async function deletePlaybackActivity(db: Database, serverId: string, ids: number[], bus?: EventBus): Promise<number> {
  const affected: PlayIds[] = [];
  const deleted = await deletePlays(db, serverId, 'h.id = ANY($2::bigint[])', [ids], undefined, affected);
  if (bus) await publishHistoryChange(bus, historyChange(serverId, affected));
  return deleted;
}
