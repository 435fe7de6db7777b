import type { Migration } from './index.js';

/**
 * 0024's `play_card_rollups_by_seconds` (the cards' month lists in watched-time order) served one reader: the
 * year in review's walk for the server's top items and series. `play_year_tops` (0031) answers them since, so
 * the walk and its index go.
 */
export const unusedSecondsIndex: Migration = {
  name: '0032-unused-seconds-index',
  async up({ sql }) {
    await sql(`DROP INDEX IF EXISTS play_card_rollups_by_seconds`);
  },
};
