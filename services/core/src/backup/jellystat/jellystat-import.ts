import type { Readable } from 'node:stream';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors/app-error.js';
import { ANALYZE_AFTER_PLAYS, analyzeHistory } from '../../history/analyze-history.js';
import { recordPlays, type PlayToRecord } from '../../history/record-plays.js';
import type { RestoreHooks } from '../backup-restore.js';
import { walkJellystatFile } from './jellystat-tokens.js';
import {
  episodeRow,
  fileRow,
  id,
  int,
  json,
  libraryRow,
  playMethod,
  seasonRow,
  text,
  time,
  topItemRow,
  userRow,
  type ItemRow,
  type JsonRow,
} from './jellystat-rows.js';

export interface JellystatImportSummary {
  kind: 'jellystat';
  imported: Record<string, number>;
  /** Reason → rows left out. */
  skipped: Record<string, number>;
}

const BATCH = 1000;
const KNOWN_TABLES = [
  'jf_libraries',
  'jf_library_items',
  'jf_library_seasons',
  'jf_library_episodes',
  'jf_users',
  'jf_playback_activity',
  'jf_playback_reporting_plugin_data',
  'jf_item_info',
];

/**
 * Imports a Jellystat backup into one media server's data, in one transaction (a bad row anywhere leaves
 * the database as it was). Existing rows win (ON CONFLICT DO NOTHING) and every play has a stable key
 * (`jellystat:<Id>`, `jellystat-pr:<rowid>`), so importing the same file twice adds nothing.
 */
export async function importJellystatBackup(
  db: Database,
  stream: Readable,
  serverId: string,
  hooks: RestoreHooks = {},
): Promise<JellystatImportSummary> {
  const summary: JellystatImportSummary = { kind: 'jellystat', imported: {}, skipped: {} };
  const add = (bucket: Record<string, number>, key: string, n = 1) => {
    if (n > 0) bucket[key] = (bucket[key] ?? 0) + n;
  };
  await db.sequelize.transaction(async (t) => {
    const importer = new JellystatImporter(db, t, serverId, add.bind(null, summary.imported), add.bind(null, summary.skipped));
    const batches = new Map<string, JsonRow[]>();
    let rows = 0;
    await walkJellystatFile(
      stream,
      async (table, row) => {
        hooks.signal?.throwIfAborted();
        if (!KNOWN_TABLES.includes(table)) {
          add(summary.skipped, `unknown table ${table}`.slice(0, 80));
          return;
        }
        const batch = batches.get(table) ?? [];
        batch.push(row);
        batches.set(table, batch);
        if (batch.length >= BATCH) {
          batches.set(table, []);
          await importer.write(table, batch);
          rows += batch.length;
          hooks.onProgress?.(0, `Imported ${rows} Jellystat rows`);
        }
      },
      async (table) => {
        const batch = batches.get(table);
        batches.delete(table);
        if (batch?.length) await importer.write(table, batch);
        await importer.tableDone(table);
      },
    );
  });
  if ((summary.imported.plays ?? 0) + (summary.imported['plugin plays'] ?? 0) >= ANALYZE_AFTER_PLAYS) await analyzeHistory(db);
  hooks.onProgress?.(100, 'Jellystat import complete');
  return summary;
}

class JellystatImporter {
  /** Pre-1.1.4 imported rows hold the synthetic episode key (EpisodeId + SeasonId) instead of the episode id. */
  private readonly syntheticEpisodes = new Map<string, string>();
  /** Plugin rowids Jellystat already copied into its activity table (imported = true). */
  private readonly importedRowIds = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly t: Transaction,
    private readonly serverId: string,
    private readonly imported: (key: string, n?: number) => void,
    private readonly skipped: (reason: string, n?: number) => void,
  ) {}

  async write(table: string, rows: JsonRow[]): Promise<void> {
    for (const row of rows)
      if (row === null || typeof row !== 'object' || Array.isArray(row)) throw AppError.badRequest(`${table}: rows must be objects`);
    switch (table) {
      case 'jf_libraries':
        return this.libraries(rows);
      case 'jf_library_items':
        return this.items(rows.map(topItemRow), rows);
      case 'jf_library_seasons':
        return this.items(rows.map(seasonRow), rows);
      case 'jf_library_episodes':
        for (const row of rows) {
          const synthetic = id(row.Id);
          const episode = id(row.EpisodeId);
          if (synthetic && episode && synthetic !== episode) this.syntheticEpisodes.set(synthetic, episode);
        }
        return this.items(rows.map(episodeRow), rows);
      case 'jf_users':
        return this.users(rows);
      case 'jf_playback_activity':
        return this.activity(rows);
      case 'jf_playback_reporting_plugin_data':
        return this.pluginRows(rows);
      case 'jf_item_info':
        return this.files(rows);
    }
  }

  /** Seasons and episodes carry no library in Jellystat: they take their series' once it is known. */
  async tableDone(table: string): Promise<void> {
    if (table !== 'jf_library_seasons' && table !== 'jf_library_episodes') return;
    await this.db.query(
      `UPDATE items c SET library_id = s.library_id FROM items s
       WHERE c.server_id = $1 AND c.library_id IS NULL AND s.server_id = $1 AND s.id = c.series_id AND s.library_id IS NOT NULL RETURNING 1`,
      [this.serverId],
      this.t,
    );
  }

  private async insert(
    table: string,
    columns: Record<string, string>,
    rows: object[],
    conflict = 'ON CONFLICT DO NOTHING',
  ): Promise<number> {
    if (rows.length === 0) return 0;
    const names = Object.keys(columns);
    const result = await this.db.query(
      `INSERT INTO ${table} (server_id, ${names.join(', ')})
       SELECT $1, ${names.map((n) => `r.${n}`).join(', ')} FROM json_to_recordset($2::json) AS r(${names.map((n) => `${n} ${columns[n]}`).join(', ')})
       ${conflict} RETURNING 1 AS added`,
      [this.serverId, JSON.stringify(rows)],
      this.t,
    );
    return result.length;
  }

  private keep<T extends { id: string | null }>(rows: T[], what: string, required: (row: T) => boolean = () => true): T[] {
    const kept = rows.filter((row) => row.id !== null && required(row));
    this.skipped(`${what} without an Id or a required field`, rows.length - kept.length);
    return kept;
  }

  private async libraries(raw: JsonRow[]) {
    const rows = this.keep(raw.map(libraryRow), 'library', (r) => r.name !== null);
    const added = await this.insert(
      'libraries',
      {
        id: 'text',
        name: 'text',
        collection_type: 'text',
        archived: 'boolean',
        primary_image_tag: 'text',
        item_count: 'int',
        season_count: 'int',
        episode_count: 'int',
      },
      rows,
    );
    this.imported('libraries', added);
    this.skipped('library already present', rows.length - added);
  }

  private async items(mapped: ItemRow[], raw: JsonRow[]) {
    const rows = this.keep(mapped, 'item', (r) => r.name !== null);
    const added = await this.insert(
      'items',
      {
        id: 'text',
        type: 'text',
        name: 'text',
        library_id: 'text',
        parent_id: 'text',
        series_id: 'text',
        series_name: 'text',
        season_id: 'text',
        season_name: 'text',
        index_number: 'int',
        parent_index_number: 'int',
        production_year: 'int',
        community_rating: 'real',
        official_rating: 'text',
        run_time_ticks: 'bigint',
        date_created: 'timestamptz',
        premiere_date: 'timestamptz',
        primary_image_tag: 'text',
        primary_image_hash: 'text',
        archived: 'boolean',
        archived_at: 'timestamptz',
      },
      rows,
    );
    this.imported('items', added);
    this.skipped('item already present', rows.length - added);
    const genres = raw.flatMap((row) => {
      const list = json(row.Genres);
      const itemId = id(row.Id);
      return Array.isArray(list) && itemId
        ? list.filter((g): g is string => typeof g === 'string').map((genre) => ({ item_id: itemId, genre }))
        : [];
    });
    await this.insert('item_genres', { item_id: 'text', genre: 'text' }, genres);
  }

  private async users(raw: JsonRow[]) {
    const rows = this.keep(raw.map(userRow), 'user');
    const added = await this.insert(
      'media_users',
      {
        id: 'text',
        name: 'text',
        is_administrator: 'boolean',
        primary_image_tag: 'text',
        last_login_at: 'timestamptz',
        last_activity_at: 'timestamptz',
      },
      rows,
    );
    this.imported('users', added);
    this.skipped('user already present', rows.length - added);
  }

  private async files(raw: JsonRow[]) {
    const rows = this.keep(raw.map(fileRow), 'file');
    const added = await this.db.query(
      `INSERT INTO media_sources (server_id, item_id, id, name, path, size, bitrate)
       SELECT $1, r.id, r.id, r.name, r.path, r.size, r.bitrate
       FROM json_to_recordset($2::json) AS r(id text, name text, path text, size bigint, bitrate bigint)
       WHERE EXISTS (SELECT 1 FROM items i WHERE i.server_id = $1 AND i.id = r.id)
       ON CONFLICT DO NOTHING RETURNING 1 AS added`,
      [this.serverId, JSON.stringify(rows)],
      this.t,
    );
    await this.db.query(
      `UPDATE items i SET size = COALESCE(i.size, r.size), path = COALESCE(i.path, r.path)
       FROM json_to_recordset($2::json) AS r(id text, path text, size bigint) WHERE i.server_id = $1 AND i.id = r.id RETURNING 1`,
      [this.serverId, JSON.stringify(rows)],
      this.t,
    );
    this.imported('files', added.length);
    this.skipped('file already present or of an item the backup does not have', rows.length - added.length);
  }

  /** Item details a play copies (type, series, season, library), read from what was imported before. */
  private async lookup(itemIds: string[]) {
    const rows = await this.db.query<{
      id: string;
      type: string;
      name: string;
      library_id: string | null;
      series_id: string | null;
      series_name: string | null;
      season_id: string | null;
      index_number: number | null;
      parent_index_number: number | null;
      run_time_ticks: number | null;
    }>(
      `SELECT id, type, name, library_id, series_id, series_name, season_id, index_number, parent_index_number, run_time_ticks
       FROM items WHERE server_id = $1 AND id = ANY($2::text[])`,
      [this.serverId, [...new Set(itemIds)]],
      this.t,
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Users deleted from the media server still own plays: they come back as removed users, named from the play. */
  private async ensureUsers(plays: PlayToRecord[]) {
    const users = [...new Map(plays.map((p) => [p.userId, { id: p.userId, name: p.userName }])).values()];
    await this.insert(
      'media_users',
      { id: 'text', name: 'text', removed_at: 'timestamptz' },
      users.map((u) => ({ ...u, removed_at: new Date().toISOString() })),
    );
  }

  private async record(plays: PlayToRecord[], what: string) {
    await this.ensureUsers(plays);
    const added = await recordPlays(this.db, plays, this.t);
    this.imported(what, added);
    this.skipped('play already imported', plays.length - added);
  }

  private async activity(raw: JsonRow[]) {
    const candidates = raw.map((row) => {
      const episode = id(row.EpisodeId);
      return { row, itemId: (episode && this.syntheticEpisodes.get(episode)) ?? episode ?? id(row.NowPlayingItemId) };
    });
    const items = await this.lookup(candidates.map((c) => c.itemId).filter((v): v is string => v !== null));
    const plays: PlayToRecord[] = [];
    for (const { row, itemId } of candidates) {
      const seconds = int(row.PlaybackDuration) ?? 0;
      const endedAt = time(row.ActivityDateInserted);
      const userId = id(row.UserId);
      const key = text(row.Id);
      if (!key || !userId || !itemId || !endedAt) {
        this.skipped('play without an Id, user, item or date');
        continue;
      }
      if (seconds < 1) {
        this.skipped('play shorter than 1 second');
        continue;
      }
      if (row.imported === true || row.imported === 'true') this.importedRowIds.add(key);
      const item = items.get(itemId);
      const transcoding = json(row.TranscodingInfo);
      plays.push({
        serverId: this.serverId,
        playKey: `jellystat:${key}`,
        source: 'restore',
        userId,
        userName: text(row.UserName) ?? userId,
        itemId,
        itemName: text(row.NowPlayingItemName) ?? item?.name ?? itemId,
        itemType: item?.type ?? (text(row.EpisodeId) ? 'Episode' : null),
        seriesId: item?.series_id ?? (text(row.EpisodeId) ? id(row.NowPlayingItemId) : null),
        seriesName: text(row.SeriesName) ?? item?.series_name ?? null,
        seasonId: item?.season_id ?? id(row.SeasonId),
        seasonNumber: item?.parent_index_number ?? null,
        episodeNumber: item?.type === 'Episode' ? item.index_number : null,
        libraryId: item?.library_id ?? null,
        client: text(row.Client),
        deviceName: text(row.DeviceName),
        deviceId: text(row.DeviceId),
        applicationVersion: text(row.ApplicationVersion),
        remoteEndPoint: text(row.RemoteEndPoint),
        playMethod: playMethod(row.PlayMethod),
        transcodingInfo: transcoding && typeof transcoding === 'object' ? transcoding : null,
        startedAt: new Date(new Date(endedAt).getTime() - seconds * 1000),
        endedAt: new Date(endedAt),
        playedSeconds: seconds,
        runTimeTicks: item?.run_time_ticks ?? null,
      });
    }
    await this.record(plays, 'plays');
  }

  /**
   * Playback Reporting rows: a row Jellystat already copied into its activity (same rowid) is that play;
   * a row with a play of the same user and item within an hour in the history is the same play too.
   */
  private async pluginRows(raw: JsonRow[]) {
    const fresh = raw.filter((row) => {
      const rowid = text(row.rowid);
      if (rowid && this.importedRowIds.has(rowid)) {
        this.skipped('plugin row already in the activity');
        return false;
      }
      return true;
    });
    const rows = fresh
      .map((row) => ({
        row,
        userId: id(row.UserId),
        itemId: id(row.ItemId),
        at: time(row.DateCreated),
        seconds: Math.max(0, int(row.PlayDuration) ?? 0),
      }))
      .filter((r) => {
        const ok = r.userId !== null && r.itemId !== null && r.at !== null && text(r.row.rowid) !== null && r.seconds >= 1;
        if (!ok) this.skipped('plugin row without a user, item, date or duration');
        return ok;
      });
    const near = await this.db.query<{ i: number }>(
      `SELECT r.i FROM json_to_recordset($2::json) AS r(i int, user_id text, item_id text, at timestamptz)
       WHERE EXISTS (SELECT 1 FROM playback_history h WHERE h.server_id = $1 AND h.user_id = r.user_id AND h.item_id = r.item_id
         AND h.started_at BETWEEN r.at - interval '1 hour' AND r.at + interval '1 hour' AND h.play_key NOT LIKE 'jellystat-pr:%')`,
      [this.serverId, JSON.stringify(rows.map((r, i) => ({ i, user_id: r.userId, item_id: r.itemId, at: r.at })))],
      this.t,
    );
    const duplicates = new Set(near.map((n) => n.i));
    this.skipped('plugin row matching a play already in the history', duplicates.size);
    const kept = rows.filter((_r, i) => !duplicates.has(i));
    const items = await this.lookup(kept.map((r) => r.itemId!));
    await this.record(
      kept.map(({ row, userId, itemId, at, seconds }) => {
        const item = items.get(itemId!);
        return {
          serverId: this.serverId,
          playKey: `jellystat-pr:${text(row.rowid)}`,
          source: 'playback_reporting',
          userId: userId!,
          userName: userId!,
          itemId: itemId!,
          itemName: text(row.ItemName) ?? item?.name ?? itemId!,
          itemType: text(row.ItemType) ?? item?.type ?? null,
          seriesId: item?.series_id ?? null,
          seriesName: item?.series_name ?? null,
          seasonId: item?.season_id ?? null,
          seasonNumber: item?.parent_index_number ?? null,
          episodeNumber: item?.type === 'Episode' ? item.index_number : null,
          libraryId: item?.library_id ?? null,
          client: text(row.ClientName),
          deviceName: text(row.DeviceName),
          playMethod: playMethod(row.PlaybackMethod),
          startedAt: new Date(at!),
          endedAt: new Date(new Date(at!).getTime() + seconds * 1000),
          playedSeconds: seconds,
          runTimeTicks: item?.run_time_ticks ?? null,
        } satisfies PlayToRecord;
      }),
      'plugin plays',
    );
  }
}
