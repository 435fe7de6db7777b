import { lastSeenSeconds, type UsersTableRow } from '@reelstat/contract';
import { CSV_BOM, csvLine } from './csv.js';

export const USERS_CSV_COLUMNS = [
  'UserId',
  'UserName',
  'ServerId',
  'Tracked',
  'LastWatched',
  'LastClient',
  'TotalPlays',
  'TotalWatchTime',
  'LastSeenSecondsAgo',
] as const;

type UserRow = UsersTableRow & { UserId: string; ServerId?: string };

/**
 * The users table as CSV lines, in the order given. The table has one row per media-server user (thousands at
 * most, already read whole by the users page), so the rows come from that read; lines are still produced one
 * at a time for the response to pull.
 */
export function* usersCsvLines(rows: readonly UserRow[], options: { bom?: boolean } = {}): Generator<string> {
  yield `${options.bom ? CSV_BOM : ''}${csvLine(USERS_CSV_COLUMNS)}`;
  for (const row of rows) {
    const seen = lastSeenSeconds(row);
    yield csvLine([
      row.UserId,
      row.UserName,
      row.ServerId,
      row.Tracked !== false,
      row.LastWatched,
      row.LastClient,
      row.TotalPlays ?? 0,
      row.TotalWatchTime ?? 0,
      Number.isFinite(seen) ? seen : null,
    ]);
  }
}
