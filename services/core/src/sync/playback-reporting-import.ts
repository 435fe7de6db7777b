/**
 * Imports the Playback Reporting plugin's history (PlaybackActivity) into Reelstat's, through writeHistory only
 * (which also applies Emby's play-method rule).
 *
 * - Repeatable: each plugin row becomes a play with a stable key (user, item, start time), so importing it
 *   again adds nothing; a rowid cursor makes the next run read only new rows (and restarts from 0 when the
 *   plugin recreated its table).
 * - It stops where the activity monitor's own history begins: the monitor records those plays itself, with
 *   more detail, so importing them too would count them twice (and their plugin rows may still be growing).
 * - Episodes are mapped to their series and season through the items table, never by name.
 */
import type { Database } from '../db/database.js';
import { ANALYZE_AFTER_PLAYS, analyzeHistory } from '../history/analyze-history.js';
import { HistoryChangeCollector } from '../history/history-events.js';
import { writeHistory, type PlayMethod, type PlayToRecord } from '../history/record-plays.js';
import type { HistoryChangedEvent } from '@reelstat/contract';
import type { MediaServerClient } from '../media-server/media-server-client.js';
import { playbackReportingRecords } from '../media-server/schemas/playback-reporting.js';
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import type { SyncReporter } from './sync-context.js';
import { SyncRepository } from './sync-repository.js';

const BATCH = 5000;
const CURSOR = 'playback_reporting_rowid';

export interface ImportSummary {
  server: string;
  read: number;
  imported: number;
  /** What the added plays changed (ids only), for one 'history' event after the import. */
  change?: HistoryChangedEvent;
}

interface ItemInfo {
  id: string;
  name: string;
  type: string;
  series_id: string | null;
  series_name: string | null;
  season_id: string | null;
  parent_index_number: number | null;
  index_number: number | null;
  library_id: string | null;
  run_time_ticks: number | null;
}

export async function importPlaybackReporting(
  db: Database,
  link: MediaServerLink,
  client: MediaServerClient,
  reporter: SyncReporter,
): Promise<ImportSummary> {
  const repo = new SyncRepository(db);
  const { signal, log } = reporter;
  const [stats] = playbackReportingRecords(
    await client.submitPlaybackReportingQuery('SELECT max(rowid) AS maxRowId, count(*) AS total FROM PlaybackActivity', { signal }),
  );
  const maxRowId = Number(stats?.maxRowId || 0);
  const total = Number(stats?.total || 0);
  let cursor = Number((await repo.cursor(link.id, CURSOR)) ?? 0);
  if (cursor > maxRowId) {
    await log.warn(`${link.name}: the plugin's table was recreated; reading it from the start (known plays are not added twice)`);
    cursor = 0;
  }
  const cutoff = await monitorStart(db, link.id);
  await log.info(
    `${link.name}: ${total} plugin rows, reading after row ${cursor}` +
      (cutoff ? `, plays before ${cutoff.toISOString()} (later ones are in the activity monitor's history)` : ''),
  );
  const summary: ImportSummary = { server: link.name, read: 0, imported: 0 };
  const change = new HistoryChangeCollector(link.id);
  for (;;) {
    signal.throwIfAborted();
    // Only numbers and a date we formatted ourselves go into this SQL (the plugin takes no parameters).
    const where = `rowid > ${Math.trunc(cursor)}${cutoff ? ` AND DateCreated < '${pluginDate(cutoff)}'` : ''}`;
    const rows = playbackReportingRecords(
      await client.submitPlaybackReportingQuery(
        `SELECT rowid AS RowId, * FROM PlaybackActivity WHERE ${where} ORDER BY rowid LIMIT ${BATCH}`,
        {
          signal,
        },
      ),
    );
    if (rows.length === 0) break;
    const plays = await toPlays(db, link.id, rows);
    const { inserted } = await writeHistory(db, plays);
    summary.imported += inserted.length;
    change.add(inserted);
    summary.read += rows.length;
    cursor = Math.max(cursor, ...rows.map((r) => Number(r.RowId)));
    await repo.setCursor(link.id, CURSOR, String(cursor));
    reporter.progress(maxRowId ? Math.min(1, cursor / maxRowId) : 1);
    if (rows.length < BATCH) break;
  }
  if (summary.imported >= ANALYZE_AFTER_PLAYS) await analyzeHistory(db);
  reporter.progress(1);
  summary.change = change.event();
  return summary;
}

async function monitorStart(db: Database, serverId: string): Promise<Date | undefined> {
  const [row] = await db.query<{ at: Date | null }>(
    `SELECT min(started_at) AS at FROM playback_history WHERE server_id = $1 AND source = 'monitor'`,
    [serverId],
  );
  return row?.at ?? undefined;
}

/** The plugin's DateCreated text: server local time, which Reelstat reads as UTC (the server's zone is not known). */
function pluginDate(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

function parsePluginDate(text: string): Date {
  const iso = text.trim().replace(' ', 'T');
  const date = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`Playback Reporting row with an unreadable DateCreated: ${text}`);
  return date;
}

function playMethodOf(text: string): PlayMethod {
  if (/^transcode/i.test(text)) return 'Transcode';
  if (/^directstream/i.test(text)) return 'DirectStream';
  return 'DirectPlay';
}

/** "Transcode (v:h264 a:direct)" → which streams were converted, as the session's TranscodingInfo says it. */
function transcodingOf(method: string, reasons: string | undefined): Record<string, unknown> | null {
  if (!/^transcode/i.test(method)) return null;
  const video = /v:([^\s)]+)/.exec(method)?.[1];
  const audio = /a:([^\s)]+)/.exec(method)?.[1];
  const info: Record<string, unknown> = {
    IsVideoDirect: video === 'direct',
    IsAudioDirect: audio === 'direct',
  };
  if (video && video !== 'direct') info.VideoCodec = video;
  if (audio && audio !== 'direct') info.AudioCodec = audio;
  if (reasons)
    info.TranscodeReasons = reasons
      .split(/[,|]/)
      .map((r) => r.trim())
      .filter(Boolean);
  return info;
}

/** "Series - s01e02 - Episode" → its parts, for episodes Reelstat does not know. */
function episodeFromName(name: string): { series: string; season: number; episode: number; title: string } | undefined {
  const match = /^(.*) - s(\d+)e(\d+) - (.*)$/i.exec(name);
  return match ? { series: match[1]!, season: Number(match[2]), episode: Number(match[3]), title: match[4]! } : undefined;
}

async function toPlays(db: Database, serverId: string, rows: Record<string, string>[]): Promise<PlayToRecord[]> {
  const itemIds = [...new Set(rows.map((r) => r.ItemId ?? ''))];
  const userIds = [...new Set(rows.map((r) => r.UserId ?? ''))];
  const items = new Map(
    (
      await db.query<ItemInfo>(
        `SELECT id, name, type, series_id, series_name, season_id, parent_index_number, index_number, library_id, run_time_ticks
         FROM items WHERE server_id = $1 AND id = ANY($2::text[])`,
        [serverId, itemIds],
      )
    ).map((i) => [i.id, i]),
  );
  const users = new Map(
    (
      await db.query<{ id: string; name: string }>('SELECT id, name FROM media_users WHERE server_id = $1 AND id = ANY($2::text[])', [
        serverId,
        userIds,
      ])
    ).map((u) => [u.id, u.name]),
  );
  return rows.map((row) => {
    const startedAt = parsePluginDate(row.DateCreated ?? '');
    const item = items.get(row.ItemId ?? '');
    const isEpisode = (item?.type ?? row.ItemType) === 'Episode';
    const parsed = isEpisode && !item ? episodeFromName(row.ItemName ?? '') : undefined;
    const played = Math.max(0, Number(row.PlayDuration) || 0);
    const paused = Math.max(0, Number(row.PauseDuration) || 0);
    const method = row.PlaybackMethod ?? '';
    return {
      serverId,
      playKey: `pr:${row.UserId}:${row.ItemId}:${row.DateCreated}`,
      source: 'playback_reporting',
      userId: row.UserId ?? '',
      userName: users.get(row.UserId ?? '') ?? row.UserId ?? '',
      itemId: row.ItemId ?? '',
      itemName: item?.name ?? parsed?.title ?? row.ItemName ?? '',
      itemType: item?.type ?? (row.ItemType || null),
      seriesId: item?.series_id ?? null,
      seriesName: item?.series_name ?? parsed?.series ?? null,
      seasonId: item?.season_id ?? null,
      seasonNumber: isEpisode ? (item?.parent_index_number ?? parsed?.season ?? null) : null,
      episodeNumber: isEpisode ? (item?.index_number ?? parsed?.episode ?? null) : null,
      libraryId: item?.library_id ?? null,
      client: row.ClientName || null,
      deviceName: row.DeviceName || null,
      remoteEndPoint: row.RemoteAddress || null,
      playMethod: playMethodOf(method),
      transcodingInfo: transcodingOf(method, row.TranscodeReasons),
      startedAt,
      endedAt: new Date(startedAt.getTime() + (played + paused) * 1000),
      playedSeconds: played,
      pausedSeconds: paused,
      runTimeTicks: item?.run_time_ticks ?? null,
    };
  });
}
