import type { Database } from '../db/database.js';

/** Items as SPEC.md §3 names their fields, with all-time plays from play_totals (series include episodes). */
export interface ItemDetailRow {
  id: string;
  name: string;
  type: string;
  series_id: string | null;
  series_name: string | null;
  season_id: string | null;
  season_name: string | null;
  index_number: number | null;
  parent_index_number: number | null;
  parent_id: string | null;
  library_id: string | null;
  library_name: string | null;
  file_name: string | null;
  path: string | null;
  run_time_ticks: number | null;
  size: number | null;
  archived: boolean;
  image_hash: string | null;
  image_blur_hashes: unknown;
  image_tags: unknown;
  date_created: Date | null;
  plays: number | null;
  played_seconds: number | null;
  episodes: number | null;
}

const ITEM_COLUMNS = `i.id, i.name, i.type, i.series_id, i.series_name, i.season_id, i.season_name, i.index_number, i.parent_index_number,
  i.parent_id, i.library_id, l.name AS library_name, i.file_name, i.path, i.run_time_ticks, i.size, i.archived,
  i.primary_image_hash AS image_hash, i.image_blur_hashes, i.image_tags, i.date_created,
  t.plays, t.played_seconds`;

const ITEM_JOINS = `LEFT JOIN libraries l ON l.server_id = i.server_id AND l.id = i.library_id
  LEFT JOIN play_totals t ON t.server_id = i.server_id AND t.scope = 'item' AND t.key = i.id`;

export function toItem(row: ItemDetailRow) {
  return {
    Id: row.id,
    Name: row.name,
    Type: row.type,
    SeriesId: row.series_id,
    SeriesName: row.series_name,
    SeasonId: row.season_id,
    SeasonName: row.season_name,
    EpisodeId: row.type === 'Episode' ? row.id : null,
    IndexNumber: row.index_number,
    ParentIndexNumber: row.parent_index_number,
    ParentId: row.library_id,
    LibraryName: row.library_name,
    FileName: row.file_name,
    Path: row.path,
    RunTimeTicks: row.run_time_ticks,
    Size: row.size,
    archived: row.archived,
    PrimaryImageHash: row.image_hash,
    ImageBlurHashes: row.image_blur_hashes ?? null,
    ImageTags: row.image_tags ?? null,
    DateCreated: row.date_created ? new Date(row.date_created).toISOString() : null,
    times_played: Math.max(0, row.plays ?? 0),
    total_play_time: Math.max(0, row.played_seconds ?? 0),
    ...(row.episodes === null || row.episodes === undefined ? {} : { Episodes: row.episodes }),
  };
}
export type ItemAnswer = ReturnType<typeof toItem>;

export async function itemDetails(db: Database, serverId: string, id: string): Promise<ItemAnswer | undefined> {
  const [row] = await db.query<ItemDetailRow>(
    `SELECT ${ITEM_COLUMNS}, (SELECT count(*) FROM items e WHERE e.server_id = $1 AND e.type = 'Episode'
       AND (e.series_id = i.id OR e.season_id = i.id) AND NOT e.archived)::int AS episodes
     FROM items i ${ITEM_JOINS} WHERE i.server_id = $1 AND i.id = $2`,
    [serverId, id],
  );
  return row ? toItem(row) : undefined;
}

/** Seasons of a series, in season order, each with its episode count and plays. */
export async function seasonsOf(db: Database, serverId: string, seriesId: string) {
  const rows = await db.query<ItemDetailRow>(
    `SELECT ${ITEM_COLUMNS}, (SELECT count(*) FROM items e WHERE e.server_id = $1 AND e.season_id = i.id AND e.type = 'Episode')::int AS episodes
     FROM items i ${ITEM_JOINS}
     WHERE i.server_id = $1 AND i.series_id = $2 AND i.type = 'Season'
     ORDER BY i.index_number NULLS LAST, lower(i.name), i.id`,
    [serverId, seriesId],
  );
  return rows.map(toItem);
}

/** Episodes of a season (or of a series, when given one), in episode order. */
export async function episodesOf(db: Database, serverId: string, parentId: string) {
  const rows = await db.query<ItemDetailRow>(
    `SELECT ${ITEM_COLUMNS}, NULL::int AS episodes FROM items i ${ITEM_JOINS}
     WHERE i.server_id = $1 AND i.type = 'Episode' AND (i.season_id = $2 OR i.series_id = $2)
     ORDER BY i.parent_index_number NULLS LAST, i.index_number NULLS LAST, lower(i.name), i.id`,
    [serverId, parentId],
  );
  return rows.map(toItem);
}

/** A library's own entries (movies, series, tracks …) with their all-time plays, most played first. */
export async function libraryItemsWithStats(db: Database, serverId: string, libraryId: string) {
  const rows = await db.query<ItemDetailRow>(
    `SELECT ${ITEM_COLUMNS}, NULL::int AS episodes FROM items i ${ITEM_JOINS}
     WHERE i.server_id = $1 AND i.library_id = $2
       AND i.type NOT IN ('Season', 'Episode', 'MusicAlbum', 'MusicArtist', 'Folder', 'CollectionFolder')
     ORDER BY COALESCE(t.plays, 0) DESC, lower(COALESCE(i.sort_name, i.name)), i.id`,
    [serverId, libraryId],
  );
  return rows.map(toItem);
}
