import type { Migration } from './index.js';
import { HISTORY_SEARCH_TEXT, ROLLUP_BACKFILL_SQL } from '../../history/rollup-sql.js';

/**
 * Statistics storage that stays exact in any time zone and fast at millions of plays.
 *
 * - play_rollups replaces the UTC-day daily_rollups: per UTC quarter hour, library, client and play method.
 *   Every time zone in use today has an offset that is a multiple of 15 minutes (+05:30, +05:45, DST shifts
 *   included), so a quarter hour never straddles a local day or hour: day, weekday and hour buckets in any
 *   zone are sums of whole quarter hours, with no approximation.
 * - play_totals keeps all-time plays and seconds per user, item (also per series and season) and library, for
 *   the pages that show all-time figures (users table, library cards, library items).
 * - Covering indexes let the per-user and per-item cards of a window read only the index, and let a deep
 *   history page skip its offset in the index (ids first, rows after).
 * - Trigram indexes make the history search fast when pg_trgm is available (it ships with PostgreSQL's
 *   contrib; without it the search still works, just slower).
 */
export const statisticsSchema: Migration = {
  name: '0004-statistics',
  async up({ sql }) {
    await sql(`
DROP TABLE IF EXISTS daily_rollups;

CREATE TABLE play_rollups (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  bucket         timestamptz NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  client         text NOT NULL DEFAULT '',
  play_method    text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, bucket, library_id, client, play_method)
);
CREATE INDEX play_rollups_library ON play_rollups (server_id, library_id, bucket) INCLUDE (plays, played_seconds);

CREATE TABLE play_totals (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  scope          text NOT NULL CHECK (scope IN ('user', 'item', 'library')),
  key            text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, scope, key)
);

CREATE INDEX history_started_cover ON playback_history (server_id, started_at, id)
  INCLUDE (user_id, item_id, item_type, series_id, played_seconds);
CREATE INDEX history_user_cover ON playback_history (server_id, user_id, started_at, id)
  INCLUDE (item_id, series_id, played_seconds);
CREATE INDEX history_library_cover ON playback_history (server_id, library_id, started_at, id);
-- An item's history includes its episodes when it is a series (0001 indexes series_id) or a season.
CREATE INDEX history_season_started ON playback_history (server_id, season_id, started_at DESC) WHERE season_id IS NOT NULL;
-- One index per sort the activity table offers (ties broken by id), so any page of any sort is an index walk.
CREATE INDEX history_sort_user ON playback_history (server_id, lower(user_name), id);
CREATE INDEX history_sort_title ON playback_history (server_id, lower(COALESCE(series_name, item_name)), id);
CREATE INDEX history_sort_client ON playback_history (server_id, lower(client), id);
CREATE INDEX history_sort_device ON playback_history (server_id, lower(device_name), id);
CREATE INDEX history_sort_address ON playback_history (server_id, remote_end_point, id);
CREATE INDEX history_sort_method ON playback_history (server_id, play_method, id);
CREATE INDEX history_sort_duration ON playback_history (server_id, played_seconds, id);

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'pg_trgm not created (no privilege): history search works without its index';
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX history_search_trgm ON playback_history USING gin ((${HISTORY_SEARCH_TEXT.replace(/'/g, "''")}) gin_trgm_ops)';
  END IF;
END $$;

${ROLLUP_BACKFILL_SQL}
`);
  },
};
