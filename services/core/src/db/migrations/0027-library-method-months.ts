import type { Migration } from './index.js';
import { derivedLevelTriggers } from './derived-level.js';
import { libraryMethodMonthRollupsFrom } from '../../history/rollup-sql.js';

/**
 * play_rollups_by_library_method_month: plays and seconds per UTC month × library × playback method, for a
 * library's playback methods over long windows (getLibraryItemsPlayMethodStats, stats/window-sql.ts
 * windowedRollup). All time read every UTC day × client × method of the library from play_rollups_daily (30 ms
 * p50, 73 ms p95 at 5 M plays); whole months are now a few rows each. Derived from play_rollups_daily (0006) by
 * statement triggers, in the same statement as every change of the daily level, like the levels before it.
 */
const KEY = ['server_id', 'bucket', 'library_id', 'play_method'];

export const libraryMethodMonths: Migration = {
  name: '0027-library-method-months',
  async up({ sql }) {
    // The backfill reads the daily level once: longer than a request's timeout on a large history.
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
CREATE TABLE play_rollups_by_library_method_month (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  bucket         timestamptz NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  play_method    text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  -- A library's months in order: the reader's one index range.
  PRIMARY KEY (server_id, library_id, bucket, play_method)
);
INSERT INTO play_rollups_by_library_method_month (${KEY.join(', ')}, plays, played_seconds)
SELECT ${KEY.join(', ')}, plays, played_seconds FROM (${libraryMethodMonthRollupsFrom('play_rollups_daily')}) AS m;
${derivedLevelTriggers({
  table: 'play_rollups_by_library_method_month',
  source: 'play_rollups_daily',
  fn: 'play_rollups_daily_to_method_months',
  key: KEY,
  columns: ['server_id', 'bucket', 'library_id', 'play_method', 'plays', 'played_seconds'],
  delta: libraryMethodMonthRollupsFrom,
})}`);
  },
};
