/** All SQL of the library sync. Rows travel as one JSON parameter per statement (set-based, bound, no string building). */
import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { ItemPageRows } from './item-rows.js';

export interface UserRow {
  id: string;
  name: string;
  is_administrator: boolean;
  primary_image_tag: string | null;
  last_activity_at: string | null;
  last_login_at: string | null;
}

export interface LibraryInput {
  id: string;
  name: string;
  collection_type: string;
}

export interface LibraryRow {
  id: string;
  name: string;
  collection_type: string;
  tracked: boolean;
  archived: boolean;
}

export interface SeenItem {
  item_id: string;
  etag: string | null;
}

const ITEM_COLUMNS = [
  'server_id',
  'id',
  'library_id',
  'type',
  'name',
  'sort_name',
  'parent_id',
  'series_id',
  'series_name',
  'season_id',
  'season_name',
  'album_id',
  'album_name',
  'artists',
  'index_number',
  'parent_index_number',
  'production_year',
  'community_rating',
  'official_rating',
  'run_time_ticks',
  'size',
  'path',
  'file_name',
  'container',
  'date_created',
  'date_last_saved',
  'premiere_date',
  'primary_image_tag',
  'primary_image_hash',
  'image_tags',
  'image_blur_hashes',
  'provider_ids',
  'etag',
] as const;
const ITEM_UPDATES = ITEM_COLUMNS.filter((c) => c !== 'server_id' && c !== 'id')
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ');
const ITEM_UPSERT = `INSERT INTO items (${ITEM_COLUMNS.join(', ')}, archived, archived_at, last_synced_at)
  SELECT ${ITEM_COLUMNS.join(', ')}, false, NULL, now() FROM json_populate_recordset(NULL::items, $1::json)
  ON CONFLICT (server_id, id) DO UPDATE SET ${ITEM_UPDATES}, archived = false, archived_at = NULL, last_synced_at = now()`;

import { stageNewItems } from '../webhooks/recently-added-events.js';

export class SyncRepository {
  constructor(private readonly db: Database) {}

  // ------------------------------------------------------------------ users

  /** Renames and image changes update; a user that disappeared keeps its row (history points to it). `tracked` is never written. */
  async upsertUsers(serverId: string, users: UserRow[]): Promise<void> {
    await this.db.query(
      `INSERT INTO media_users (server_id, id, name, is_administrator, primary_image_tag, last_activity_at, last_login_at, removed_at, updated_at)
       SELECT $1, u.id, u.name, u.is_administrator, u.primary_image_tag, u.last_activity_at, u.last_login_at, NULL, now()
       FROM json_to_recordset($2::json) AS u(id text, name text, is_administrator boolean, primary_image_tag text,
         last_activity_at timestamptz, last_login_at timestamptz)
       ON CONFLICT (server_id, id) DO UPDATE SET name = EXCLUDED.name, is_administrator = EXCLUDED.is_administrator,
         primary_image_tag = EXCLUDED.primary_image_tag,
         last_activity_at = GREATEST(media_users.last_activity_at, EXCLUDED.last_activity_at),
         last_login_at = GREATEST(media_users.last_login_at, EXCLUDED.last_login_at), removed_at = NULL, updated_at = now()
       RETURNING id`,
      [serverId, JSON.stringify(users)],
    );
    await this.db.query(
      `UPDATE media_users SET removed_at = now(), updated_at = now()
       WHERE server_id = $1 AND removed_at IS NULL AND NOT (id = ANY($2::text[])) RETURNING id`,
      [serverId, users.map((u) => u.id)],
    );
  }

  // ------------------------------------------------------------------ libraries

  /** New libraries start tracked; names and types follow the server; vanished libraries are archived, not deleted. */
  async upsertLibraries(serverId: string, libraries: LibraryInput[]): Promise<LibraryRow[]> {
    await this.db.query(
      `INSERT INTO libraries (server_id, id, name, collection_type, archived, updated_at)
       SELECT $1, l.id, l.name, l.collection_type, false, now() FROM json_to_recordset($2::json) AS l(id text, name text, collection_type text)
       ON CONFLICT (server_id, id) DO UPDATE SET name = EXCLUDED.name, collection_type = EXCLUDED.collection_type,
         archived = false, updated_at = now()
       RETURNING id`,
      [serverId, JSON.stringify(libraries)],
    );
    await this.db.query(
      `UPDATE libraries SET archived = true, updated_at = now()
       WHERE server_id = $1 AND NOT archived AND NOT (id = ANY($2::text[])) RETURNING id`,
      [serverId, libraries.map((l) => l.id)],
    );
    return this.libraries(serverId);
  }

  async libraries(serverId: string): Promise<LibraryRow[]> {
    return this.db.query<LibraryRow>(
      'SELECT id, name, collection_type, tracked, archived FROM libraries WHERE server_id = $1 ORDER BY name, id',
      [serverId],
    );
  }

  async setLibraryTracked(serverId: string, libraryId: string, tracked: boolean): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE libraries SET tracked = $3, updated_at = now() WHERE server_id = $1 AND id = $2 RETURNING id',
      [serverId, libraryId, tracked],
    );
    return rows.length > 0;
  }

  /** Items of the library that are not archived (a library never synced has none). */
  async liveItemCount(serverId: string, libraryId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM items WHERE server_id = $1 AND library_id = $2 AND NOT archived',
      [serverId, libraryId],
    );
    return row?.n ?? 0;
  }

  // ------------------------------------------------------------------ items

  /**
   * Writes one page in one transaction: items upserted (un-archiving any that reappear), their media sources and
   * streams replaced, their genres changed to the page's. Either the whole page is stored or none of it.
   */
  async writeItems(rows: ItemPageRows, options: { announceNew?: boolean } = {}): Promise<void> {
    if (rows.items.length === 0) return;
    const serverId = rows.items[0]!.server_id;
    const ids = rows.items.map((i) => i.id);
    await this.db.sequelize.transaction(async (transaction: Transaction) => {
      const written = await this.db.query<{ id: string; inserted: boolean; type: string }>(
        `${ITEM_UPSERT} RETURNING id, (xmax = 0) AS inserted, type`,
        [JSON.stringify(rows.items)],
        transaction,
      );
      // New media in a library synced before: announced by a media_recently_added webhook when the run ends.
      if (options.announceNew) await stageNewItems(this.db, serverId, written, transaction);
      // Streams go with their sources (ON DELETE CASCADE).
      await this.db.query(
        'DELETE FROM media_sources WHERE server_id = $1 AND item_id = ANY($2::text[]) RETURNING 1',
        [serverId, ids],
        transaction,
      );
      // Genres are changed, not replaced: the year in review's genre rollups (0028) apply again the plays of an
      // item whose genres changed, so rewriting unchanged genres would re-read every play of the page's items.
      await this.db.query(
        `DELETE FROM item_genres g WHERE server_id = $1 AND item_id = ANY($2::text[])
           AND NOT EXISTS (SELECT 1 FROM json_populate_recordset(NULL::item_genres, $3::json) n WHERE n.item_id = g.item_id AND n.genre = g.genre)
         RETURNING 1`,
        [serverId, ids, JSON.stringify(rows.genres)],
        transaction,
      );
      if (rows.sources.length) {
        await this.db.query(
          `INSERT INTO media_sources SELECT * FROM json_populate_recordset(NULL::media_sources, $1::json) RETURNING 1`,
          [JSON.stringify(rows.sources)],
          transaction,
        );
      }
      if (rows.streams.length) {
        await this.db.query(
          `INSERT INTO media_streams SELECT * FROM json_populate_recordset(NULL::media_streams, $1::json) RETURNING 1`,
          [JSON.stringify(rows.streams)],
          transaction,
        );
      }
      if (rows.genres.length) {
        await this.db.query(
          `INSERT INTO item_genres SELECT * FROM json_populate_recordset(NULL::item_genres, $1::json) ON CONFLICT DO NOTHING RETURNING 1`,
          [JSON.stringify(rows.genres)],
          transaction,
        );
      }
    });
  }

  /** Ids already stored (fetchItem: which ancestors are missing). */
  async existingItems(serverId: string, ids: readonly string[]): Promise<Array<{ id: string; library_id: string | null }>> {
    return this.db.query('SELECT id, library_id FROM items WHERE server_id = $1 AND id = ANY($2::text[])', [serverId, ids]);
  }

  // ------------------------------------------------------------------ the staging set of a full sync

  async stageSeen(runId: string, serverId: string, libraryId: string, seen: SeenItem[]): Promise<void> {
    if (seen.length === 0) return;
    await this.db.query(
      `INSERT INTO sync_seen_items (run_id, server_id, item_id, library_id, etag)
       SELECT $1, $2, s.item_id, $3, s.etag FROM json_to_recordset($4::json) AS s(item_id text, etag text)
       ON CONFLICT (run_id, item_id) DO NOTHING RETURNING 1`,
      [runId, serverId, libraryId, JSON.stringify(seen)],
    );
  }

  /**
   * Seen items that are new, changed (another Etag, or none to compare), archived or moved to another library:
   * the ones to fetch in full.
   */
  async changedSeenIds(runId: string, serverId: string, libraryId: string): Promise<string[]> {
    const rows = await this.db.query<{ item_id: string }>(
      `SELECT s.item_id FROM sync_seen_items s
       LEFT JOIN items i ON i.server_id = s.server_id AND i.id = s.item_id
       WHERE s.run_id = $1 AND s.server_id = $2 AND s.library_id = $3
         AND (i.id IS NULL OR i.archived OR i.library_id IS DISTINCT FROM s.library_id
              OR s.etag IS NULL OR i.etag IS DISTINCT FROM s.etag)`,
      [runId, serverId, libraryId],
    );
    return rows.map((r) => r.item_id);
  }

  async seenCount(runId: string, libraryId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sync_seen_items WHERE run_id = $1 AND library_id = $2',
      [runId, libraryId],
    );
    return row?.n ?? 0;
  }

  /** The anti-join: items of fully listed libraries that this run did not see are archived (never deleted, never remapped). */
  async archiveUnseen(runId: string, serverId: string, libraryIds: readonly string[]): Promise<number> {
    if (libraryIds.length === 0) return 0;
    const rows = await this.db.query(
      `UPDATE items i SET archived = true, archived_at = now()
       WHERE i.server_id = $2 AND i.library_id = ANY($3::text[]) AND NOT i.archived
         AND NOT EXISTS (SELECT 1 FROM sync_seen_items s WHERE s.run_id = $1 AND s.item_id = i.id)
       RETURNING 1`,
      [runId, serverId, libraryIds],
    );
    return rows.length;
  }

  /** Items of libraries that vanished from the server go with them. */
  async archiveItemsOfArchivedLibraries(serverId: string): Promise<number> {
    const rows = await this.db.query(
      `UPDATE items i SET archived = true, archived_at = now() FROM libraries l
       WHERE l.server_id = $1 AND l.archived AND i.server_id = l.server_id AND i.library_id = l.id AND NOT i.archived RETURNING 1`,
      [serverId],
    );
    return rows.length;
  }

  async clearStage(runId: string): Promise<void> {
    // Also sweeps what runs killed mid-way left behind.
    await this.db.query(`DELETE FROM sync_seen_items WHERE run_id = $1 OR created_at < now() - interval '1 day' RETURNING 1`, [runId]);
  }

  // ------------------------------------------------------------------ derived data

  /**
   * Names copied onto children (an episode's series and season name, a track's album) follow their parent:
   * the server re-saves a renamed series but not its episodes. Only parents written since `since` (this run)
   * can have changed, so only their children are looked at.
   */
  async propagateParentNames(serverId: string, since: Date): Promise<void> {
    for (const [column, idColumn] of [
      ['series_name', 'series_id'],
      ['season_name', 'season_id'],
      ['album_name', 'album_id'],
    ] as const) {
      // Column names come from the fixed list above, never from input.
      await this.db.query(
        `UPDATE items c SET ${column} = p.name FROM items p
         WHERE p.server_id = $1 AND p.last_synced_at >= $2 AND c.server_id = $1 AND c.${idColumn} = p.id
           AND c.${column} IS DISTINCT FROM p.name RETURNING 1`,
        [serverId, since.toISOString()],
      );
    }
  }

  /**
   * Library_Count (movies, series, tracks and other playable or top-level media: not seasons, episodes,
   * albums or artists), Season_Count, Episode_Count, files and size, from the live (non-archived) items.
   */
  async refreshLibraryCounts(serverId: string): Promise<void> {
    await this.db.query(
      `UPDATE libraries l SET item_count = COALESCE(c.item_count, 0), season_count = COALESCE(c.season_count, 0),
         episode_count = COALESCE(c.episode_count, 0), file_count = COALESCE(f.file_count, 0), total_size = COALESCE(f.total_size, 0),
         updated_at = now()
       FROM libraries l2
       LEFT JOIN (
         SELECT library_id,
           count(*) FILTER (WHERE type NOT IN ('Season', 'Episode', 'MusicAlbum', 'MusicArtist'))::int AS item_count,
           count(*) FILTER (WHERE type = 'Season')::int AS season_count,
           count(*) FILTER (WHERE type = 'Episode')::int AS episode_count
         FROM items WHERE server_id = $1 AND NOT archived GROUP BY library_id
       ) c ON c.library_id = l2.id
       LEFT JOIN (
         SELECT i.library_id, count(*)::int AS file_count, COALESCE(sum(s.size), 0)::bigint AS total_size
         FROM media_sources s JOIN items i ON i.server_id = s.server_id AND i.id = s.item_id
         WHERE s.server_id = $1 AND NOT i.archived GROUP BY i.library_id
       ) f ON f.library_id = l2.id
       WHERE l.server_id = $1 AND l2.server_id = l.server_id AND l2.id = l.id RETURNING 1`,
      [serverId],
    );
  }

  // ------------------------------------------------------------------ cursors

  /** The database's clock (rows are stamped with it). */
  async databaseNow(): Promise<Date> {
    const [row] = await this.db.query<{ now: Date }>('SELECT now() AS now');
    return row!.now;
  }

  async cursor(serverId: string, name: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ value: string }>('SELECT value FROM sync_cursors WHERE server_id = $1 AND name = $2', [
      serverId,
      name,
    ]);
    return row?.value;
  }

  async setCursor(serverId: string, name: string, value: string): Promise<void> {
    await this.db.query(
      `INSERT INTO sync_cursors (server_id, name, value, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (server_id, name) DO UPDATE SET value = EXCLUDED.value, updated_at = now() RETURNING 1`,
      [serverId, name, value],
    );
  }

  /** The newest DateCreated stored for the server (the server's clock). */
  async newestCreated(serverId: string): Promise<Date | undefined> {
    const [row] = await this.db.query<{ at: Date | null }>('SELECT max(date_created) AS at FROM items WHERE server_id = $1', [serverId]);
    return row?.at ?? undefined;
  }
}
