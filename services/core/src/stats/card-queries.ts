import type { Database } from '../db/database.js';
import { daysWindowStart } from './time-window.js';
import { cardWindowSql, topOfWindow } from './card-windows.js';
import { CARD_KINDS } from '../history/rollup-sql.js';

/** Stat cards of the home page (SPEC.md §2 Home): top 5 over a window of days in a time zone. */
export const CARD_SIZE = 5;
export type CardType = 'Movie' | 'Series' | 'Audio';

const START = daysWindowStart('$2', '$3');

/** What a card groups on: episodes count for their series, movies and tracks for themselves. */
const CARD_TARGET: Record<CardType, { key: string; filter: string }> = CARD_KINDS;

export interface CardRow {
  Id: string;
  Name: string;
  Plays: number;
  unique_viewers?: number;
  total_playback_duration: number;
  PrimaryImageHash: string | null;
  archived: boolean;
}

/**
 * Windows of at most this many days are read from the history directly (a few thousand plays); longer ones from
 * the cards' rollups (see card-windows.ts). A week is walked too: counted from the history it reads every play of
 * the week (some 33 k index entries at 5 M plays, p50 18-28 ms), where the walk counts about a hundred keys.
 */
const HISTORY_WINDOW_DAYS = 1;

interface RankedItem {
  id: string;
  plays: number;
  viewers: number;
  played_seconds: number;
}

/**
 * Most viewed (plays) or most popular (distinct viewers) movies, series or tracks. Names and images of the
 * winners come from items, or from their latest play when the item is not (or no longer) in the library.
 * Ties: plays (or viewers, then plays), then watched seconds, then name. `historyBelow`: see topOfWindow (tests
 * set 0 to walk small histories).
 */
export async function topItems(
  db: Database,
  serverId: string,
  tz: string,
  days: number,
  type: CardType,
  by: 'plays' | 'viewers',
  historyBelow?: number,
) {
  const walked =
    days > HISTORY_WINDOW_DAYS ? await topOfWindow(db, serverId, tz, days, type, by, CARD_SIZE, undefined, historyBelow) : undefined;
  const ranked = walked
    ? walked.map(({ key, ...counts }) => ({ id: key, ...counts }))
    : await rankedFromHistory(db, serverId, tz, days, type, by);
  const order = by === 'viewers' ? 'viewers DESC, plays DESC, played_seconds DESC' : 'plays DESC, played_seconds DESC';
  const rows = await db.query<RankedItem & { name: string | null; image_hash: string | null; archived: boolean | null }>(
    `WITH ranked AS (
       SELECT * FROM json_to_recordset($2::json) AS r(id text, plays int, viewers int, played_seconds bigint)
     ), top AS (
       SELECT ranked.*, i.name, i.primary_image_hash AS image_hash, i.archived FROM ranked
       LEFT JOIN items i ON i.server_id = $1 AND i.id = ranked.id
     )
     SELECT top.*, COALESCE(top.name, last.name) AS name FROM top
     LEFT JOIN LATERAL (
       SELECT ${type === 'Series' ? 'series_name' : 'item_name'} AS name FROM playback_history
       WHERE server_id = $1 AND ${CARD_TARGET[type].key} = top.id ORDER BY started_at DESC LIMIT 1
     ) AS last ON top.name IS NULL
     ORDER BY ${order}, COALESCE(top.name, last.name), top.id LIMIT ${CARD_SIZE}`,
    [serverId, JSON.stringify(ranked)],
  );
  return rows.map((row) => ({
    Id: row.id,
    Name: row.name ?? row.id,
    Plays: row.plays,
    ...(by === 'viewers' ? { unique_viewers: row.viewers } : {}),
    total_playback_duration: Number(row.played_seconds),
    PrimaryImageHash: row.image_hash,
    archived: row.archived ?? false,
  }));
}

/** The leading items of a window counted from the history's covering index (short windows, distinct viewers). */
async function rankedFromHistory(db: Database, serverId: string, tz: string, days: number, type: CardType, by: 'plays' | 'viewers') {
  const target = CARD_TARGET[type];
  const order = by === 'viewers' ? 'viewers DESC, plays DESC, played_seconds DESC' : 'plays DESC, played_seconds DESC';
  // Names break ties, so every item tied with the fifth on the counts is kept for the naming query.
  const rows = await db.query<RankedItem>(
    `WITH ranked AS (
       SELECT ${target.key} AS id, count(*)::int AS plays, count(DISTINCT user_id)::int AS viewers, sum(played_seconds)::bigint AS played_seconds
       FROM playback_history
       WHERE server_id = $1 AND started_at >= ${START} AND ${target.filter}
       GROUP BY 1
     ), fifth AS (SELECT * FROM ranked ORDER BY ${order} OFFSET ${CARD_SIZE - 1} LIMIT 1)
     SELECT ranked.* FROM ranked LEFT JOIN fifth ON true
     WHERE fifth.id IS NULL OR (${by === 'viewers' ? 'ranked.viewers, ranked.plays, ranked.played_seconds) >= (fifth.viewers, fifth.plays, fifth.played_seconds)' : 'ranked.plays, ranked.played_seconds) >= (fifth.plays, fifth.played_seconds)'}`,
    [serverId, tz, days],
  );
  return rows;
}

/** Most viewed libraries: plays per library from the cards' rollups. */
export async function topLibraries(db: Database, serverId: string, tz: string, days: number) {
  const rows = await db.query<{
    key: string;
    plays: number;
    played_seconds: number;
    name: string | null;
    collection_type: string | null;
    image_hash: string | null;
    archived: boolean | null;
  }>(
    `SELECT w.*, l.name, l.collection_type, l.primary_image_hash AS image_hash, l.archived
     FROM (${cardWindowSql('library')}) AS w
     LEFT JOIN libraries l ON l.server_id = $1 AND l.id = w.key
     ORDER BY w.plays DESC, w.played_seconds DESC, l.name, w.key LIMIT ${CARD_SIZE}`,
    [serverId, tz, days],
  );
  return rows.map((row) => ({
    Id: row.key,
    Name: row.name ?? row.key,
    Plays: row.plays,
    total_playback_duration: row.played_seconds,
    CollectionType: row.collection_type ?? 'mixed',
    PrimaryImageHash: row.image_hash,
    archived: row.archived ?? false,
  }));
}

/**
 * Most used clients: the top CARD_SIZE, or every client when `limit` is null ("All servers" sums each server's
 * whole list before it keeps the top five, so a client sixth on every server still wins when its sum does).
 */
export async function topClients(db: Database, serverId: string, tz: string, days: number, limit: number | null = CARD_SIZE) {
  const rows = await db.query<{ key: string; plays: number; played_seconds: number }>(
    `${cardWindowSql('client')}
     ORDER BY plays DESC, played_seconds DESC, key${limit === null ? '' : ` LIMIT ${limit}`}`,
    [serverId, tz, days],
  );
  return rows.map((row) => ({ Client: row.key, Plays: row.plays, total_playback_duration: row.played_seconds }));
}

/** Most active users: plays per user from the cards' rollups (a few thousand rows for any window). */
export async function topUsers(db: Database, serverId: string, tz: string, days: number) {
  const rows = await db.query<{ user_id: string; plays: number; played_seconds: number; name: string | null; image_tag: string | null }>(
    `WITH ranked AS (
       SELECT key AS user_id, plays, played_seconds FROM (${cardWindowSql('user')}) AS w
       ORDER BY plays DESC, played_seconds DESC, key LIMIT ${CARD_SIZE * 4}
     )
     SELECT ranked.*, COALESCE(u.name, last.user_name) AS name, u.primary_image_tag AS image_tag FROM ranked
     LEFT JOIN media_users u ON u.server_id = $1 AND u.id = ranked.user_id
     LEFT JOIN LATERAL (
       SELECT user_name FROM playback_history WHERE server_id = $1 AND user_id = ranked.user_id ORDER BY started_at DESC LIMIT 1
     ) AS last ON u.name IS NULL
     ORDER BY plays DESC, played_seconds DESC, COALESCE(u.name, last.user_name), ranked.user_id LIMIT ${CARD_SIZE}`,
    [serverId, tz, days],
  );
  return rows.map((row) => ({
    UserId: row.user_id,
    Name: row.name ?? row.user_id,
    Plays: row.plays,
    total_playback_duration: row.played_seconds,
    PrimaryImageTag: row.image_tag,
  }));
}

export const PLAY_METHODS = ['DirectPlay', 'DirectStream', 'Transcode'] as const;

/**
 * Plays per playback method. On Emby, whose sessions call direct play "DirectStream" in the dashboard
 * (SPEC.md §3), the history already stores it so (writeHistory applies the rule once). There are three methods
 * (a check constraint), fewer than CARD_SIZE, so every server's answer is complete and "All servers" sums exactly.
 */
export async function playMethodCounts(db: Database, serverId: string, tz: string, days: number) {
  const rows = await db.query<{ key: string; plays: number; played_seconds: number }>(cardWindowSql('method'), [serverId, tz, days]);
  const counts = new Map<string, { Count: number; total_playback_duration: number }>();
  for (const row of rows) {
    const name = row.key;
    const entry = counts.get(name) ?? { Count: 0, total_playback_duration: 0 };
    entry.Count += row.plays;
    entry.total_playback_duration += row.played_seconds;
    counts.set(name, entry);
  }
  return [...counts.entries()]
    .map(([Name, entry]) => ({ Name, ...entry }))
    .sort((a, b) => b.Count - a.Count || a.Name.localeCompare(b.Name))
    .slice(0, CARD_SIZE);
}
