/**
 * SQL shared by every writer and deleter of history, so that play_rollups and play_totals always equal what
 * playback_history holds: recordPlays adds, deletePlays subtracts, the 0004 migration backfills.
 */

/** Start of the UTC quarter hour of a timestamptz column (date_bin needs PostgreSQL 14; this works anywhere). */
export function quarterHour(column: string): string {
  return `to_timestamp(floor(extract(epoch FROM ${column}) / 900) * 900)`;
}

/**
 * Rows (server_id, scope, key, plays, played_seconds) to add to play_totals for a set of history rows named
 * `source` with columns server_id, user_id, item_id, series_id, season_id, library_id, played_seconds.
 * A play counts for its item and, when it is an episode, for its season and series too.
 */
export function totalsDelta(source: string): string {
  return `SELECT server_id, scope, key, count(*)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT server_id, 'user' AS scope, user_id AS key, played_seconds FROM ${source}
      UNION ALL SELECT server_id, 'item', item_id, played_seconds FROM ${source}
      UNION ALL SELECT server_id, 'item', series_id, played_seconds FROM ${source} WHERE series_id IS NOT NULL AND series_id <> item_id
      UNION ALL SELECT server_id, 'item', season_id, played_seconds FROM ${source}
        WHERE season_id IS NOT NULL AND season_id <> item_id AND season_id IS DISTINCT FROM series_id
      UNION ALL SELECT server_id, 'library', library_id, played_seconds FROM ${source} WHERE library_id IS NOT NULL
    ) AS parts GROUP BY server_id, scope, key`;
}

/** Rows (server_id, bucket, library_id, client, play_method, plays, played_seconds) for play_rollups. */
export function rollupDelta(source: string): string {
  return `SELECT server_id, ${quarterHour('started_at')} AS bucket, COALESCE(library_id, '') AS library_id, COALESCE(client, '') AS client,
      play_method, count(*)::int AS plays, sum(played_seconds)::bigint AS played_seconds
    FROM ${source} GROUP BY 1, 2, 3, 4, 5`;
}

/** Used by the 0004 migration: rollups and totals of the history already there. */
export const ROLLUP_BACKFILL_SQL = `
INSERT INTO play_rollups (server_id, bucket, library_id, client, play_method, plays, played_seconds)
${rollupDelta('playback_history')};
INSERT INTO play_totals (server_id, scope, key, plays, played_seconds)
${totalsDelta('playback_history')};
`;

/**
 * The text the history search matches (user, title, client, device, address). The trigram index of the 0004
 * migration is built on exactly this expression, so keep the two identical.
 */
export const HISTORY_SEARCH_TEXT = `lower(coalesce(user_name, '') || ' ' || coalesce(series_name, '') || ' ' || item_name || ' ' || coalesce(client, '')
        || ' ' || coalesce(device_name, '') || ' ' || coalesce(remote_end_point, ''))`;
