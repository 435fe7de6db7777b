import { z } from 'zod';
import { historyQuery } from './history.js';
import { mediaId } from './stats.js';

/**
 * CSV exports. A history export takes the history view's own query (search, sort, desc, filters: the view in
 * force, parsed by the same schema) without paging, and at most one of userId, libraryId, itemId for the
 * user's, library's or item's history.
 */
const bomFlag = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true')
  .default(false);

export const historyExportQuery = historyQuery
  .omit({ page: true, size: true })
  .extend({ userId: mediaId.optional(), libraryId: mediaId.optional(), itemId: mediaId.optional(), bom: bomFlag })
  .refine((query) => [query.userId, query.libraryId, query.itemId].filter((id) => id !== undefined).length <= 1, {
    message: 'name at most one of userId, libraryId, itemId',
    path: ['userId'],
  });
export type HistoryExportQuery = z.infer<typeof historyExportQuery>;

/**
 * A single-use link to save an export (POST /api/exportHistory/ticket, /api/exportUsers/ticket: the same query
 * as the export): the browser navigates to `url` within `expiresInSeconds`, and the file streams to disk.
 */
export const downloadTicketAnswer = z.object({ ticket: z.string(), url: z.string(), expiresInSeconds: z.number() });
export type DownloadTicketAnswer = z.infer<typeof downloadTicketAnswer>;
export const downloadQuery = z.object({ ticket: z.string().min(1, 'is required').max(200, 'must be at most 200 characters') });

/** The users table's sortable columns, in the table's order. */
export const USER_SORTS = ['UserName', 'Tracked', 'LastWatched', 'LastClient', 'TotalPlays', 'TotalWatchTime', 'LastSeen'] as const;
export type UserSort = (typeof USER_SORTS)[number];

export const usersExportQuery = z.object({
  search: z.string().max(200, 'must be at most 200 characters').default(''),
  sort: z.enum(USER_SORTS, { error: `must be one of ${USER_SORTS.join(', ')}` }).default('LastSeen'),
  desc: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .default(false),
  bom: bomFlag,
});
export type UsersExportQuery = z.infer<typeof usersExportQuery>;

/** What the users table's search, sort and CSV export read of a row. */
export interface UsersTableRow {
  UserName: string;
  Tracked?: boolean;
  LastWatched?: string | null;
  LastClient?: string | null;
  TotalPlays?: number;
  TotalWatchTime?: number;
  LastSeen?: { days?: number; hours?: number; minutes?: number; seconds?: number } | null;
}

/** Seconds since the user was last seen; never seen sorts last. */
export function lastSeenSeconds(row: UsersTableRow): number {
  const p = row.LastSeen;
  if (!p) return Number.POSITIVE_INFINITY;
  return (p.days ?? 0) * 86400 + (p.hours ?? 0) * 3600 + (p.minutes ?? 0) * 60 + (p.seconds ?? 0);
}

/** Sort value of a column; LastSeen sorts by how recent (less time ago first when ascending). */
export function userSortValue(row: UsersTableRow, column: UserSort): string | number {
  switch (column) {
    case 'UserName':
      return row.UserName.toLowerCase();
    case 'Tracked':
      return row.Tracked === false ? 0 : 1;
    case 'LastWatched':
      return (row.LastWatched ?? '').toLowerCase();
    case 'LastClient':
      return (row.LastClient ?? '').toLowerCase();
    case 'TotalPlays':
      return row.TotalPlays ?? 0;
    case 'TotalWatchTime':
      return row.TotalWatchTime ?? 0;
    case 'LastSeen':
      return lastSeenSeconds(row);
  }
}

export function sortUsers<Row extends UsersTableRow>(rows: readonly Row[], column: UserSort, desc: boolean): Row[] {
  return [...rows].sort((a, b) => {
    const x = userSortValue(a, column);
    const y = userSortValue(b, column);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return desc ? -order : order;
  });
}

/** The users table's search: the name or the last thing watched contains the text (any case). */
export function searchUsers<Row extends UsersTableRow>(rows: readonly Row[], search: string): Row[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...rows];
  return rows.filter((row) => row.UserName.toLowerCase().includes(needle) || (row.LastWatched ?? '').toLowerCase().includes(needle));
}
