import type { Migration } from './index.js';

/**
 * Two additions of issue 21:
 * - The year in review ranks its top items and series by watched time, then plays (the home page's cards rank
 *   by plays). Its threshold walk over the cards' month lists (card-windows.ts) needs those lists in
 *   watched-time order: this index gives them, for the month span only (a few hundred thousand rows at 5 M
 *   plays; the day rows are never walked).
 * - Download tickets (export/download-tickets.ts): a browser saves a CSV export by navigating to a short-lived,
 *   single-use link, so the file streams to disk instead of being held in memory. Only a hash of each ticket
 *   is kept, with who asked and for which export and query.
 */
export const yearTopsAndDownloadTickets: Migration = {
  name: '0024-year-tops-and-download-tickets',
  async up({ sql }) {
    await sql(`
CREATE INDEX play_card_rollups_by_seconds ON play_card_rollups (server_id, kind, bucket, played_seconds DESC, key)
  INCLUDE (plays) WHERE span = 'month';

CREATE TABLE download_tickets (
  ticket_hash  text PRIMARY KEY,
  principal    jsonb NOT NULL,
  export       text NOT NULL CHECK (export IN ('history', 'users')),
  query        jsonb NOT NULL,
  -- The media server the export reads (a server id, 'all', or null for the default one).
  scope_server text,
  expires_at   timestamptz NOT NULL
);`);
  },
};
