import type { Migration } from './index.js';

/**
 * The year in review ranks its top items and series by watched time, then plays (the home page's cards rank
 * by plays). Its threshold walk over the cards' month lists (card-windows.ts) needs those lists in watched-time
 * order: this index gives them, for the month span only (a few hundred thousand rows at 5 M plays; the day rows
 * are never walked).
 */
export const cardSecondsIndex: Migration = {
  name: '0024-card-seconds-index',
  async up({ sql }) {
    await sql(`
CREATE INDEX play_card_rollups_by_seconds ON play_card_rollups (server_id, kind, bucket, played_seconds DESC, key)
  INCLUDE (plays) WHERE span = 'month';`);
  },
};
