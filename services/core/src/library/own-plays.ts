import type { Database } from '../db/database.js';
import { ALL_TIME_HOURS, hoursWindowStart } from '../stats/time-window.js';

/**
 * A viewer's own plays of items or libraries (docs/security.md, "Roles"): what an item or library page shows a
 * viewer instead of everyone's figures. The rollups have no user, so these read the viewer's plays through
 * the history's user index (history_user_cover): bounded by one person's history, not the server's.
 */
export type OwnScope = 'item' | 'library';

/** An item's plays include its episodes when it is a series or a season, as the item's figures do. */
const MATCHES: Record<OwnScope, (id: string) => string> = {
  item: (id) => `(h.item_id = ${id} OR h.series_id = ${id} OR h.season_id = ${id})`,
  library: (id) => `h.library_id = ${id}`,
};

export interface OwnFigures {
  plays: number;
  seconds: number;
}

/** All-time plays and watched seconds of one user for each id. */
export async function ownPlaysOf(
  db: Database,
  serverId: string,
  userId: string,
  scope: OwnScope,
  ids: string[],
): Promise<Map<string, OwnFigures>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; plays: number; seconds: string }>(
    `SELECT k.id, count(h.id)::int AS plays, COALESCE(sum(h.played_seconds), 0)::bigint AS seconds
     FROM unnest($3::text[]) AS k(id)
     LEFT JOIN playback_history h ON h.server_id = $1 AND h.user_id = $2 AND ${MATCHES[scope]('k.id')}
     GROUP BY k.id`,
    [serverId, userId, ids],
  );
  return new Map(rows.map((row) => [row.id, { plays: row.plays, seconds: Number(row.seconds) }]));
}

/** One user's plays and watched seconds of an item or library over the last `hours` (ALL_TIME_HOURS: all time). */
export async function ownWindowOf(db: Database, serverId: string, userId: string, scope: OwnScope, id: string, hours: number) {
  const since = hours >= ALL_TIME_HOURS ? '' : `AND h.started_at >= ${hoursWindowStart('$4')}`;
  const [row] = await db.query<{ plays: number; seconds: string }>(
    `SELECT count(*)::int AS plays, COALESCE(sum(h.played_seconds), 0)::bigint AS seconds FROM playback_history h
     WHERE h.server_id = $1 AND h.user_id = $2 AND ${MATCHES[scope]('$3')} ${since}`,
    hours >= ALL_TIME_HOURS ? [serverId, userId, id] : [serverId, userId, id, hours],
  );
  return { Plays: row?.plays ?? 0, total_playback_duration: Number(row?.seconds ?? 0) };
}
