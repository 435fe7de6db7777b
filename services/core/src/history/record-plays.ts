import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { distinctJsonValues, jsonValueHash, jsonValueIdByHash } from './json-values.js';
import { ROLLUP_KEY, rollupDelta, totalsDelta } from './rollup-sql.js';
import { SEARCH_TERM_COLUMNS, writeSearchTerms } from './search-terms.js';

export type PlayMethod = 'DirectPlay' | 'DirectStream' | 'Transcode';
export type PlaySource = 'monitor' | 'playback_reporting' | 'restore';

/** One finished play, as every writer of history (activity monitor, plugin import, restore) describes it. */
export interface PlayToRecord {
  serverId: string;
  /** Unique per server: the same play written twice (a retry, a failover, a re-import) is kept once. */
  playKey: string;
  source: PlaySource;
  userId: string;
  userName: string;
  /** What played: the episode, movie or track. */
  itemId: string;
  itemName: string;
  itemType?: string | null;
  seriesId?: string | null;
  seriesName?: string | null;
  seasonId?: string | null;
  seasonNumber?: number | null;
  episodeNumber?: number | null;
  libraryId?: string | null;
  client?: string | null;
  deviceName?: string | null;
  deviceId?: string | null;
  applicationVersion?: string | null;
  remoteEndPoint?: string | null;
  playMethod: PlayMethod;
  transcodingInfo?: unknown;
  streamDetails?: unknown;
  startedAt: Date;
  endedAt?: Date | null;
  playedSeconds: number;
  pausedSeconds?: number;
  startPositionTicks?: number | null;
  endPositionTicks?: number | null;
  runTimeTicks?: number | null;
}

/**
 * SPEC.md §3's naming rule, applied here once for every writer (monitor, Playback Reporting import, restore):
 * a server that is not Jellyfin (Emby) calls direct play "DirectStream" in its dashboard, so that is what the
 * history stores, and readers show the stored value as it is. Migration 0007 rewrote the rows written before.
 */
const PLAY_METHOD_AS_SHOWN = `CASE WHEN s.kind <> 'jellyfin' AND i.play_method = 'DirectPlay' THEN 'DirectStream' ELSE i.play_method END`;

/** A JSON field of an incoming play as jsonb; JSON null and a missing field are both SQL NULL. */
const jsonField = (name: string) => `NULLIF((o.value -> '${name}')::jsonb, 'null'::jsonb)`;

/**
 * The dictionary ids of the incoming plays' stream details and transcode info (migration 0022), inserting the
 * values not stored yet. Values already stored (nearly always) are only read, so reuse writes nothing. A value
 * new to two concurrent writers is inserted by the first; the second waits on the unique hash, and DO UPDATE
 * (which, unlike DO NOTHING, returns a row committed after this statement's snapshot) gives it the same id.
 */
const JSON_VALUE_IDS = `json_values AS (
       ${distinctJsonValues('SELECT stream_details AS value FROM incoming UNION ALL SELECT transcoding_info FROM incoming')}
     ), known_values AS (
       -- One lookup in the unique hash index per value (a join could scan the whole dictionary instead).
       SELECT * FROM (SELECT ${jsonValueIdByHash('v.hash')} AS id, v.hash FROM json_values v) AS k
       WHERE id IS NOT NULL
     ), new_values AS (
       INSERT INTO play_json_values AS d (hash, value)
       SELECT hash, value FROM json_values WHERE hash NOT IN (SELECT hash FROM known_values) ORDER BY hash
       ON CONFLICT (hash) DO UPDATE SET hash = EXCLUDED.hash
       RETURNING d.id, d.hash
     ), value_ids AS (
       SELECT id, hash FROM known_values UNION ALL SELECT id, hash FROM new_values
     )`;
const valueId = (value: string) => `(SELECT id FROM value_ids WHERE hash = ${jsonValueHash(value)})`;

/** A play whose history row a write inserted or extended (ids only: what the live dashboard needs to refresh). */
export interface WrittenPlay {
  playKey: string;
  userId: string;
  itemId: string;
  seriesId: string | null;
  seasonId: string | null;
  libraryId: string | null;
  playedSeconds: number;
}

/** What one history write did: the single place where "a play's row was inserted / extended" is known. */
export interface HistoryWrite {
  inserted: WrittenPlay[];
  extended: WrittenPlay[];
}

export interface WriteHistoryOptions {
  /**
   * Play keys that were already written once (a resumed play ending again): they only extend an existing row
   * and are never inserted, so a row deleted by an admin in the meantime stays deleted.
   */
  extendOnly?: ReadonlySet<string>;
}

/**
 * The one writer of playback_history. A play whose (server_id, play_key) is new is inserted; one that exists
 * and now ends later (a resume within the merge window) is extended: ended_at, played and paused seconds and
 * the end position take the new values. In the same statement the statistics rollups (play_rollups, whose
 * triggers keep play_rollups_daily, and play_totals; see rollup-sql.ts) get the new row minus the old one, so
 * they never disagree with the history. Writing the same values again (a retry, a failover, a re-import)
 * changes nothing, which makes every write exactly-once however often it is repeated.
 */
export async function writeHistory(
  db: Database,
  plays: readonly PlayToRecord[],
  transaction?: Transaction,
  options: WriteHistoryOptions = {},
): Promise<HistoryWrite> {
  if (plays.length === 0) return { inserted: [], extended: [] };
  const rows = plays.map((play) => ({
    server_id: play.serverId,
    play_key: play.playKey,
    source: play.source,
    user_id: play.userId,
    user_name: play.userName,
    item_id: play.itemId,
    item_name: play.itemName,
    item_type: play.itemType ?? null,
    series_id: play.seriesId ?? null,
    series_name: play.seriesName ?? null,
    season_id: play.seasonId ?? null,
    season_number: play.seasonNumber ?? null,
    episode_number: play.episodeNumber ?? null,
    library_id: play.libraryId ?? null,
    client: play.client ?? null,
    device_name: play.deviceName ?? null,
    device_id: play.deviceId ?? null,
    application_version: play.applicationVersion ?? null,
    remote_end_point: play.remoteEndPoint ?? null,
    play_method: play.playMethod,
    transcoding_info: play.transcodingInfo ?? null,
    stream_details: play.streamDetails ?? null,
    started_at: play.startedAt.toISOString(),
    ended_at: play.endedAt?.toISOString() ?? null,
    played_seconds: Math.max(0, Math.round(play.playedSeconds)),
    paused_seconds: Math.max(0, Math.round(play.pausedSeconds ?? 0)),
    start_position_ticks: play.startPositionTicks ?? null,
    end_position_ticks: play.endPositionTicks ?? null,
    run_time_ticks: play.runTimeTicks ?? null,
  }));
  // What the rollups and the live dashboard need of a written row.
  const columns = [
    'server_id',
    'started_at',
    'user_id',
    'item_id',
    'series_id',
    'season_id',
    'library_id',
    'client',
    'device_name',
    'play_method',
    'played_seconds',
  ];
  const of = (alias: string) => columns.map((column) => `${alias}.${column}`).join(', ');
  // The search's dictionary also needs the searched text of an inserted row.
  const searchColumns = SEARCH_TERM_COLUMNS.filter((column) => !columns.includes(column))
    .map((column) => `h.${column}`)
    .join(', ');
  const written = await db.query<{
    play_key: string;
    user_id: string;
    item_id: string;
    series_id: string | null;
    season_id: string | null;
    library_id: string | null;
    played_seconds: number;
    inserted: boolean;
  }>(
    // Every part of a WITH statement sees the table as it was before the statement: `previous` holds the old
    // version of each row that `written` extends, and the rollups get written minus previous.
    `WITH incoming AS (
       SELECT r.*, o.ord, ${jsonField('stream_details')} AS stream_details, ${jsonField('transcoding_info')} AS transcoding_info
       FROM json_array_elements($1::json) WITH ORDINALITY AS o(value, ord),
         json_populate_record(NULL::playback_history, o.value) AS r
     ), ${JSON_VALUE_IDS}, previous AS (
       SELECT h.play_key, ${of('h')} FROM playback_history h
       JOIN incoming i ON h.server_id = i.server_id AND h.play_key = i.play_key
     ), written AS (
       INSERT INTO playback_history AS h (server_id, play_key, source, user_id, user_name, item_id, item_name, item_type, series_id, series_name,
         season_id, season_number, episode_number, library_id, client, device_name, device_id, application_version, remote_end_point,
         play_method, transcoding_info_id, stream_details_id, started_at, ended_at, played_seconds, paused_seconds, start_position_ticks,
         end_position_ticks, run_time_ticks)
       SELECT i.server_id, i.play_key, i.source, i.user_id, i.user_name, i.item_id, i.item_name, i.item_type, i.series_id, i.series_name,
         i.season_id, i.season_number, i.episode_number, i.library_id, i.client, i.device_name, i.device_id, i.application_version,
         i.remote_end_point, ${PLAY_METHOD_AS_SHOWN}, ${valueId('i.transcoding_info')}, ${valueId('i.stream_details')}, i.started_at, i.ended_at, i.played_seconds,
         i.paused_seconds, i.start_position_ticks, i.end_position_ticks, i.run_time_ticks
       FROM incoming i JOIN media_servers s ON s.id = i.server_id
       WHERE NOT (i.play_key = ANY($2::text[])) OR EXISTS (SELECT 1 FROM previous p WHERE p.play_key = i.play_key)
       ORDER BY i.ord
       ON CONFLICT (server_id, play_key) DO UPDATE SET ended_at = EXCLUDED.ended_at, played_seconds = EXCLUDED.played_seconds,
         paused_seconds = EXCLUDED.paused_seconds, end_position_ticks = EXCLUDED.end_position_ticks
       WHERE EXCLUDED.ended_at > h.ended_at
       RETURNING h.play_key, ${of('h')}, ${searchColumns}, (xmax = 0) AS inserted
     ), changes AS (
       SELECT ${columns.join(', ')}, 1 AS weight FROM written
       UNION ALL
       SELECT ${of('p')}, -1 FROM previous p JOIN written w ON w.play_key = p.play_key AND NOT w.inserted
     ), rolled_up AS (
       INSERT INTO play_rollups AS r (server_id, bucket, library_id, play_method, plays, played_seconds)
       SELECT * FROM (${rollupDelta('changes', 'weight')}) AS delta ORDER BY 3, 2, 4
       ON CONFLICT (${ROLLUP_KEY})
       DO UPDATE SET plays = r.plays + EXCLUDED.plays, played_seconds = r.played_seconds + EXCLUDED.played_seconds
       RETURNING 1
     ), totalled AS (
       INSERT INTO play_totals AS t (server_id, scope, key, plays, played_seconds)
       SELECT * FROM (${totalsDelta('changes', 'weight')}) AS delta ORDER BY 2, 3
       ON CONFLICT (server_id, scope, key)
       DO UPDATE SET plays = t.plays + EXCLUDED.plays, played_seconds = t.played_seconds + EXCLUDED.played_seconds
       RETURNING 1
     ),
     -- An extended play changes none of the searched fields: only inserted rows add to the search's dictionary.
     ${writeSearchTerms('(SELECT *, 1 AS weight FROM written WHERE inserted)')}
     SELECT play_key, user_id, item_id, series_id, season_id, library_id, played_seconds, inserted,
       (SELECT count(*) FROM rolled_up)::int AS rollup_rows, (SELECT count(*) FROM totalled)::int AS total_rows,
       (SELECT count(*) FROM searched_terms)::int AS term_rows, (SELECT count(*) FROM searched_values)::int AS value_rows
     FROM written`,
    [JSON.stringify(rows), [...(options.extendOnly ?? [])]],
    transaction,
  );
  const result: HistoryWrite = { inserted: [], extended: [] };
  for (const row of written) {
    const play: WrittenPlay = {
      playKey: row.play_key,
      userId: row.user_id,
      itemId: row.item_id,
      seriesId: row.series_id,
      seasonId: row.season_id,
      libraryId: row.library_id,
      playedSeconds: row.played_seconds,
    };
    (row.inserted ? result.inserted : result.extended).push(play);
  }
  return result;
}

/** Writes finished plays (imports, restores: see writeHistory); returns how many were new. */
export async function recordPlays(db: Database, plays: PlayToRecord[], transaction?: Transaction): Promise<number> {
  return (await writeHistory(db, plays, transaction)).inserted.length;
}
