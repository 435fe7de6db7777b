import type { Database } from '../db/database.js';
import { AnswerCache } from '../stats/answer-cache.js';
import { timePartsSince } from '../stats/time-window.js';

/**
 * Libraries as the dashboard shows them (SPEC.md §3 Library overview, Library). Counts come from
 * library_item_counts (items not archived, kept by items' triggers: library-item-counts.ts), so they are right
 * as soon as a sync has written items.
 */

interface LibraryRow {
  id: string;
  name: string;
  collection_type: string;
  tracked: boolean;
  archived: boolean;
  image_hash: string | null;
  entries: number;
  seasons: number;
  episodes: number;
  files: number;
  size: number;
  runtime_ticks: number;
}

/** Normalises a collection type to SPEC.md's four: movies, tvshows, music, mixed. */
export function collectionType(value: string | null | undefined): string {
  return value === 'movies' || value === 'tvshows' || value === 'music' ? value : 'mixed';
}

/**
 * Content figures change only when a sync writes items, so they are kept a minute per process (and dropped at
 * once by a purge here) instead of counting every item on each page view.
 */
const contentCache = new AnswerCache(60_000, 500, 'library-content');

export function forgetLibraryContent(): void {
  contentCache.clear();
}

async function libraryRows(db: Database, serverId: string, libraryId?: string): Promise<LibraryRow[]> {
  return contentCache.get(JSON.stringify([db.url, serverId, libraryId ?? null]), () => countLibraryRows(db, serverId, libraryId));
}

async function countLibraryRows(db: Database, serverId: string, libraryId?: string): Promise<LibraryRow[]> {
  return db.query<LibraryRow>(
    `SELECT l.id, l.name, l.collection_type, l.tracked, l.archived, l.primary_image_hash AS image_hash,
       COALESCE(c.entries, 0)::int AS entries, COALESCE(c.seasons, 0)::int AS seasons, COALESCE(c.episodes, 0)::int AS episodes,
       COALESCE(c.files, 0)::int AS files, COALESCE(c.size, 0)::bigint AS size, COALESCE(c.runtime_ticks, 0)::bigint AS runtime_ticks
     FROM libraries l
     LEFT JOIN library_item_counts c ON c.server_id = l.server_id AND c.library_id = l.id
     WHERE l.server_id = $1 ${libraryId === undefined ? '' : 'AND l.id = $2'}
     ORDER BY lower(l.name), l.id`,
    libraryId === undefined ? [serverId] : [serverId, libraryId],
  );
}

export async function libraryOverview(db: Database, serverId: string) {
  const rows = await libraryRows(db, serverId);
  return rows
    .filter((row) => !row.archived)
    .map((row) => ({
      Id: row.id,
      Name: row.name,
      CollectionType: collectionType(row.collection_type),
      Library_Count: row.entries,
      Season_Count: row.seasons,
      Episode_Count: row.episodes,
    }));
}

export async function libraryMetadata(db: Database, serverId: string) {
  const rows = await libraryRows(db, serverId);
  return rows.map((row) => ({ Id: row.id, Name: row.name, files: row.files, Size: row.size }));
}

export async function libraryList(db: Database, serverId: string) {
  const rows = await db.query<{ id: string; name: string; collection_type: string; archived: boolean }>(
    `SELECT id, name, collection_type, archived FROM libraries WHERE server_id = $1 ORDER BY lower(name), id`,
    [serverId],
  );
  return rows.map((row) => ({ Id: row.id, Name: row.name, CollectionType: collectionType(row.collection_type), archived: row.archived }));
}

/**
 * Library cards and the library detail: content counts and runtime, all-time plays and watched seconds
 * (play_totals), and the last play (newest row of the library's history index).
 */
export async function libraryCards(db: Database, serverId: string, libraryId?: string) {
  const [rows, activity] = await Promise.all([
    libraryRows(db, serverId, libraryId),
    db.query<{
      id: string;
      plays: number | null;
      played_seconds: number | null;
      item_name: string | null;
      series_name: string | null;
      started_at: Date | null;
    }>(
      `SELECT l.id, t.plays, t.played_seconds, last.item_name, last.series_name, last.started_at
       FROM libraries l
       LEFT JOIN play_totals t ON t.server_id = $1 AND t.scope = 'library' AND t.key = l.id
       LEFT JOIN LATERAL (
         SELECT item_name, series_name, started_at FROM playback_history WHERE server_id = $1 AND library_id = l.id
         ORDER BY started_at DESC LIMIT 1
       ) AS last ON true
       WHERE l.server_id = $1 ${libraryId === undefined ? '' : 'AND l.id = $2'}`,
      libraryId === undefined ? [serverId] : [serverId, libraryId],
    ),
  ]);
  const byId = new Map(activity.map((row) => [row.id, row]));
  const now = Date.now();
  return rows.map((row) => {
    const last = byId.get(row.id);
    return {
      Id: row.id,
      Name: row.name,
      CollectionType: collectionType(row.collection_type),
      archived: row.archived,
      Tracked: row.tracked,
      PrimaryImageHash: row.image_hash,
      // The content's runtime in ticks (SPEC.md §9: 10,000,000 per second), as the incumbent's clients read it.
      total_play_time: row.runtime_ticks,
      total_playback_duration: Math.max(0, last?.played_seconds ?? 0),
      Plays: Math.max(0, last?.plays ?? 0),
      ItemName: last?.item_name ? (last.series_name ? `${last.series_name} - ${last.item_name}` : last.item_name) : null,
      LastActivity: timePartsSince(last?.started_at ?? null, now),
      Library_Count: row.entries,
      Season_Count: row.seasons,
      Episode_Count: row.episodes,
      files: row.files,
      Size: row.size,
    };
  });
}
