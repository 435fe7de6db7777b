import type { Migration } from './index.js';
import { DAY_SLOTS_SCHEMA_SQL } from '../../history/day-slots-sql.js';

/**
 * The day and weekday charts from one row per UTC day and library (history/day-slots-sql.ts): 96 cumulative
 * quarter-hour slots of plays and seconds, so a local day in any zone is a slot of the two UTC days it touches.
 * It replaces 0021's hour prefixes (25 rows per day and library, each on a heap page of its own for a chart that
 * reads one hour of every day): the day and weekday charts were their only reader, so the prefixes, their
 * triggers and their function go. Derived from play_rollups_by_library by statement triggers like the other chart
 * levels; a play rewrites one row instead of about twelve.
 */
export const dayChartSlots: Migration = {
  name: '0037-day-chart-slots',
  async up({ sql }) {
    // The backfill reads every library quarter hour: longer than a request's timeout on a large history.
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
DROP TRIGGER play_rollups_by_library_day_prefix_insert ON play_rollups_by_library;
DROP TRIGGER play_rollups_by_library_day_prefix_update ON play_rollups_by_library;
DROP TRIGGER play_rollups_by_library_day_prefix_delete ON play_rollups_by_library;
DROP FUNCTION play_rollups_by_library_to_day_prefixes();
DROP TABLE play_rollups_by_library_day_prefix;
${DAY_SLOTS_SCHEMA_SQL}`);
  },
};
