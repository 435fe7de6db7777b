import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { rollupDelta, totalsDelta } from './rollup-sql.js';

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
 * Writes plays to playback_history and, in the same statement, adds them to the statistics rollups
 * (play_rollups, play_totals; see rollup-sql.ts), so they never disagree. Plays whose (server_id, play_key) already exists are skipped and not counted twice.
 * Returns how many plays were new.
 */
export async function recordPlays(db: Database, plays: PlayToRecord[], transaction?: Transaction): Promise<number> {
  if (plays.length === 0) return 0;
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
  const [result] = await db.query<{ inserted: number }>(
    `WITH incoming AS (
       SELECT * FROM json_populate_recordset(NULL::playback_history, $1::json)
     ), inserted AS (
       INSERT INTO playback_history (server_id, play_key, source, user_id, user_name, item_id, item_name, item_type, series_id, series_name,
         season_id, season_number, episode_number, library_id, client, device_name, device_id, application_version, remote_end_point,
         play_method, transcoding_info, stream_details, started_at, ended_at, played_seconds, paused_seconds, start_position_ticks,
         end_position_ticks, run_time_ticks)
       SELECT server_id, play_key, source, user_id, user_name, item_id, item_name, item_type, series_id, series_name,
         season_id, season_number, episode_number, library_id, client, device_name, device_id, application_version, remote_end_point,
         play_method, transcoding_info, stream_details, started_at, ended_at, played_seconds, paused_seconds, start_position_ticks,
         end_position_ticks, run_time_ticks
       FROM incoming
       ON CONFLICT (server_id, play_key) DO NOTHING
       RETURNING server_id, started_at, user_id, item_id, series_id, season_id, library_id, client, play_method, played_seconds
     ), rolled_up AS (
       INSERT INTO play_rollups AS r (server_id, bucket, library_id, client, play_method, plays, played_seconds)
       SELECT * FROM (${rollupDelta('inserted')}) AS delta ORDER BY 2, 3, 4, 5
       ON CONFLICT (server_id, bucket, library_id, client, play_method)
       DO UPDATE SET plays = r.plays + EXCLUDED.plays, played_seconds = r.played_seconds + EXCLUDED.played_seconds
       RETURNING 1
     ), totalled AS (
       INSERT INTO play_totals AS t (server_id, scope, key, plays, played_seconds)
       SELECT * FROM (${totalsDelta('inserted')}) AS delta ORDER BY 2, 3
       ON CONFLICT (server_id, scope, key)
       DO UPDATE SET plays = t.plays + EXCLUDED.plays, played_seconds = t.played_seconds + EXCLUDED.played_seconds
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM inserted)::int AS inserted, (SELECT count(*) FROM rolled_up)::int AS rollup_rows,
       (SELECT count(*) FROM totalled)::int AS total_rows`,
    [JSON.stringify(rows)],
    transaction,
  );
  return result?.inserted ?? 0;
}
