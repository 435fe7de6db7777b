import pg from 'pg';
import type { Database } from '../db/database.js';
import { historyOrder, planHistorySearch, selectHistory, type HistoryRequest } from '../history/history-query.js';
import { CSV_BOM, csvLine } from './csv.js';

/** The columns of a history export, one play a line (the page's folded rows are unfolded). */
export const HISTORY_CSV_COLUMNS = [
  'Id',
  'Date',
  'UserName',
  'UserId',
  'RemoteEndPoint',
  'Title',
  'SeriesName',
  'SeasonNumber',
  'EpisodeNumber',
  'ItemName',
  'ItemId',
  'LibraryId',
  'Client',
  'PlayMethod',
  'DeviceName',
  'PlaybackDuration',
] as const;

/** Plays fetched per round trip: memory holds one batch whatever the size of the history. */
export const EXPORT_BATCH_ROWS = 1000;

interface ExportRow {
  id: number;
  started_at: Date;
  user_name: string;
  user_id: string;
  remote_end_point: string | null;
  series_name: string | null;
  season_number: number | null;
  episode_number: number | null;
  item_name: string;
  item_id: string;
  library_id: string | null;
  client: string | null;
  play_method: string;
  device_name: string | null;
  played_seconds: number;
}

/** The title as the activity table shows it ("Series - S1E2 - Episode" or the item's name). */
function titleOf(row: ExportRow): string {
  if (!row.series_name) return row.item_name;
  return `${row.series_name} - S${row.season_number ?? '?'}E${row.episode_number ?? '?'} - ${row.item_name}`;
}

function lineOf(row: ExportRow): string {
  return csvLine([
    Number(row.id),
    new Date(row.started_at).toISOString(),
    row.user_name,
    row.user_id,
    row.remote_end_point,
    titleOf(row),
    row.series_name,
    row.season_number,
    row.episode_number,
    row.item_name,
    row.item_id,
    row.library_id,
    row.client,
    row.play_method,
    row.device_name,
    Number(row.played_seconds),
  ]);
}

export type HistoryExportRequest = Pick<HistoryRequest, 'scope' | 'filters' | 'search' | 'sort' | 'desc'>;

/**
 * Opens a history export: the same plays and order as the history view (its selection and ORDER BY, not a
 * copy of them), read through a server-side cursor on a connection of its own in one read-only snapshot.
 * The cursor is declared before this resolves, so a database failure is an ordinary error (an error answer,
 * not a cut file). The lines are pulled one batch at a time as the consumer asks for them (backpressure);
 * returning early (the download was cancelled) closes the cursor and the connection.
 */
export async function openHistoryExport(
  db: Database,
  serverIds: string[],
  request: HistoryExportRequest,
  options: { bom?: boolean } = {},
): Promise<AsyncGenerator<string>> {
  const client = new pg.Client({ connectionString: db.url, application_name: 'reelstat-export' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    if (serverIds.length > 0) {
      const serverId = serverIds.length === 1 ? serverIds[0]! : serverIds;
      // The search's candidates from the dictionary in the export's snapshot (history/search-plan.ts).
      const plan = await planHistorySearch(async (sql, bind) => (await client.query(sql, bind)).rows, serverId, request);
      const { where, bind } = selectHistory(serverId, request, plan);
      await client.query(
        `DECLARE history_export NO SCROLL CURSOR FOR
         SELECT id, started_at, user_name, user_id, remote_end_point, series_name, season_number, episode_number, item_name,
           item_id, library_id, client, play_method, device_name, played_seconds
         FROM playback_history WHERE ${where.join(' AND ')} ORDER BY ${historyOrder(request.sort, request.desc)}`,
        bind,
      );
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return (async function* lines() {
    try {
      yield `${options.bom ? CSV_BOM : ''}${csvLine(HISTORY_CSV_COLUMNS)}`;
      if (serverIds.length === 0) return;
      for (;;) {
        const { rows } = await client.query<ExportRow>(`FETCH ${EXPORT_BATCH_ROWS} FROM history_export`);
        if (rows.length === 0) break;
        yield rows.map(lineOf).join('');
      }
      await client.query('COMMIT');
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
}
