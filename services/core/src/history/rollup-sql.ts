import { reviewRollupsBackfill } from './review-rollup-sql.js';
import { SEARCH_TERMS_REBUILD_SQL } from './search-terms.js';
import { SEARCH_WORD_TABLES } from './search-words.js';
import { RECOUNT_USER_LAST_PLAYS_SQL } from './user-last-plays.js';

/**
 * SQL shared by every writer and deleter of history, so that play_rollups and play_totals always equal what
 * playback_history holds: writeHistory adds (or adds the difference of an extended play), deletePlays subtracts,
 * the 0004 migration backfills, and rollup-invariant.ts checks.
 */

/** Start of the UTC quarter hour of a timestamptz column (date_bin needs PostgreSQL 14; this works anywhere). */
export function quarterHour(column: string): string {
  return `to_timestamp(floor(extract(epoch FROM ${column}) / 900) * 900)`;
}

/**
 * Rows (server_id, scope, key, plays, played_seconds) to add to play_totals for a set of history rows named
 * `source` with columns server_id, user_id, item_id, series_id, season_id, library_id, client, device_name,
 * played_seconds. A play counts for its item and, when it is an episode, for its season and series too; and for
 * its library's client and device (LIBRARY_VALUE_SCOPES). `weight` is an expression on `source` (1 adds a row,
 * -1 subtracts it: an extended play is its new row minus its old one).
 */
export function totalsDelta(source: string, weight = '1'): string {
  return `SELECT server_id, scope, key, sum(w)::int AS plays, sum(w * played_seconds)::bigint AS played_seconds FROM (
      SELECT server_id, 'user' AS scope, user_id AS key, played_seconds, ${weight} AS w FROM ${source}
      UNION ALL SELECT server_id, 'item', item_id, played_seconds, ${weight} FROM ${source}
      UNION ALL SELECT server_id, 'item', series_id, played_seconds, ${weight} FROM ${source} WHERE series_id IS NOT NULL AND series_id <> item_id
      UNION ALL SELECT server_id, 'item', season_id, played_seconds, ${weight} FROM ${source}
        WHERE season_id IS NOT NULL AND season_id <> item_id AND season_id IS DISTINCT FROM series_id
      UNION ALL SELECT server_id, 'library', library_id, played_seconds, ${weight} FROM ${source} WHERE library_id IS NOT NULL
      UNION ALL ${libraryValueParts(source, weight)}
    ) AS parts GROUP BY server_id, scope, key HAVING sum(w) <> 0 OR sum(w * played_seconds) <> 0`;
}

/**
 * play_totals' scopes of a library's clients and devices (0039): the plays of one client (or device) within one
 * library, keyed by libraryValueKey. A search within a library whose word lies only in clients or devices counts
 * its matches from them instead of reading the library's plays (history/library-search-count.ts).
 */
export const LIBRARY_VALUE_SCOPES = { client: 'library_client', device_name: 'library_device' } as const;

/**
 * The key of a library's value in play_totals: the library id's length first, so that no two (library, value)
 * pairs share a key whatever characters either holds.
 */
export function libraryValueKey(library: string, value: string): string {
  return `length(${library})::text || ':' || ${library} || ':' || ${value}`;
}

/** totalsDelta's rows of the library value scopes (also the 0039 migration's backfill). */
export function libraryValueParts(source: string, weight = '1'): string {
  return Object.entries(LIBRARY_VALUE_SCOPES)
    .map(
      ([column, scope]) =>
        `SELECT server_id, '${scope}', ${libraryValueKey('library_id', column)}, played_seconds, ${weight} FROM ${source}
        WHERE library_id IS NOT NULL AND ${column} IS NOT NULL`,
    )
    .join('\n      UNION ALL ');
}

/**
 * Rows (server_id, bucket, library_id, play_method, plays, played_seconds) for play_rollups (per UTC quarter hour,
 * library and play method; migration 0026 took the client out: no reader asked for it, and the clients' cards
 * read play_card_rollups); `weight` as in totalsDelta.
 */
export function rollupDelta(source: string, weight = '1'): string {
  return `SELECT server_id, ${quarterHour('started_at')} AS bucket, COALESCE(library_id, '') AS library_id,
      play_method, sum(${weight})::int AS plays, sum(${weight} * played_seconds)::bigint AS played_seconds
    FROM ${source} GROUP BY 1, 2, 3, 4 HAVING sum(${weight}) <> 0 OR sum(${weight} * played_seconds) <> 0`;
}

/** The key of play_rollups and play_rollups_daily (0026: library first, the one filter their reader has). */
export const ROLLUP_KEY = 'server_id, library_id, bucket, play_method';

/**
 * Rows (server_id, bucket, library_id, play_method, plays, played_seconds) for play_rollups_daily from
 * play_rollups rows named `source`: the UTC day of each quarter hour, as the triggers (0006, 0026) compute it.
 */
export function dailyRollupsFrom(source: string): string {
  return `SELECT server_id, to_timestamp(floor(extract(epoch FROM bucket) / 86400) * 86400) AS bucket, library_id, play_method,
      sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds
    FROM ${source} GROUP BY 1, 2, 3, 4`;
}

/** The charts' library quarter-hour level (0013) from play_rollups-shaped rows in `source`. */
export function libraryRollupsFrom(source: string): string {
  return `SELECT server_id, bucket, library_id, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds
    FROM ${source} GROUP BY 1, 2, 3`;
}

/** The charts' library hour level (0013) from library quarter-hour rows in `source`. */
export function libraryHourlyRollupsFrom(source: string): string {
  return `SELECT server_id, to_timestamp(floor(extract(epoch FROM bucket) / 3600) * 3600) AS bucket, library_id,
      sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds
    FROM ${source} GROUP BY 1, 2, 3`;
}

/**
 * The hour chart's month level (0020) from library quarter-hour rows in `source`: UTC month × quarter hour of
 * the UTC day (0–95) × library. In a month where the zone's offset does not change, every day's quarter q falls
 * in the same local hour, so a month of the hour chart is 96 rows per library.
 */
export function libraryMonthQuarterRollupsFrom(source: string): string {
  return `SELECT server_id, ${utcMonth('bucket')} AS bucket, (extract(epoch FROM bucket)::bigint % 86400 / 900)::smallint AS quarter,
      library_id, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds
    FROM ${source} GROUP BY 1, 2, 3, 4`;
}

/**
 * The library play-method level (0027) from play_rollups_daily-shaped rows in `source`: UTC month × library ×
 * playback method. A library's methods over a long window (getLibraryItemsPlayMethodStats) read a few rows per
 * month instead of every day × client × method.
 */
export function libraryMethodMonthRollupsFrom(source: string): string {
  return `SELECT server_id, ${utcMonth('bucket')} AS bucket, library_id, play_method, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds
    FROM ${source} GROUP BY 1, 2, 3, 4`;
}

/**
 * What each card of the home page counts a play for (play_card_rollups, 0018): movies and tracks for their item,
 * episodes for their series, every play for its user, its library, its client and its playback method. SQL over
 * a playback_history row.
 */
export const CARD_KINDS = {
  Movie: { key: 'item_id', filter: `item_type = 'Movie'` },
  Series: { key: 'series_id', filter: `item_type = 'Episode' AND series_id IS NOT NULL` },
  Audio: { key: 'item_id', filter: `item_type = 'Audio'` },
  user: { key: 'user_id', filter: 'true' },
  library: { key: 'library_id', filter: `library_id <> ''` },
  client: { key: 'client', filter: `client <> ''` },
  method: { key: 'play_method', filter: 'true' },
} as const;
export type CardKind = keyof typeof CARD_KINDS;

/** Start of the UTC day and of the UTC month of a timestamptz column. */
export const utcDay = (column: string) => `to_timestamp(floor(extract(epoch FROM ${column}) / 86400) * 86400)`;
export const utcMonth = (column: string) => `(date_trunc('month', ${column} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
/** The bucket of the all-time span. */
export const ALL_TIME_BUCKET = `'epoch'::timestamptz`;

/**
 * Rows (server_id, kind, span, key, bucket, plays, played_seconds) for play_card_rollups from history rows named
 * `source` that carry a `weight` column (1 adds a row, -1 subtracts it), at the three spans: UTC day, UTC month,
 * all time.
 */
export function cardRollupDelta(source: string): string {
  const kinds = Object.entries(CARD_KINDS)
    .map(
      ([kind, { key, filter }]) =>
        `SELECT server_id, started_at, played_seconds, weight, '${kind}' AS kind, ${key} AS key FROM ${source} AS s WHERE ${filter}`,
    )
    .join('\n      UNION ALL ');
  // Days first, then months and all time from the day rows: one pass over the history, not one per span.
  const nonZero = 'HAVING sum(plays) <> 0 OR sum(played_seconds) <> 0';
  return `WITH days AS (
      SELECT server_id, kind, key, ${utcDay('started_at')} AS bucket, sum(weight)::int AS plays, sum(weight * played_seconds)::bigint AS played_seconds
      FROM (
        ${kinds}
      ) AS counted GROUP BY 1, 2, 3, 4
    )
    SELECT server_id, kind, 'day' AS span, key, bucket, plays, played_seconds FROM days WHERE plays <> 0 OR played_seconds <> 0
    UNION ALL
    SELECT server_id, kind, 'month', key, ${utcMonth('bucket')}, sum(plays)::int, sum(played_seconds)::bigint FROM days GROUP BY 1, 2, 4, 5 ${nonZero}
    UNION ALL
    SELECT server_id, kind, 'all', key, ${ALL_TIME_BUCKET}, sum(plays)::int, sum(played_seconds)::bigint FROM days GROUP BY 1, 2, 4 ${nonZero}`;
}

/** The kinds of card that rank by distinct viewers (most popular): every kind but users. */
const VIEWED_KINDS = ['Movie', 'Series', 'Audio'] as const;

/** (server_id, kind, key, user_id, started_at, weight) for each row of `source` a most-popular card counts. */
function viewerTargets(source: string): string {
  return VIEWED_KINDS.map(
    (kind) =>
      `SELECT server_id, '${kind}' AS kind, ${CARD_KINDS[kind].key} AS key, user_id, started_at, weight FROM ${source} AS s WHERE ${CARD_KINDS[kind].filter}`,
  ).join('\n      UNION ALL ');
}

/**
 * Rows (server_id, kind, key, user_id, plays, last_started_at) for play_card_viewers (0018) from history rows
 * `source` with a `weight` column: one per movie, series or track and user. A user viewed a key in a window
 * that runs to now exactly when their last play of it started in the window, so the distinct viewers of any
 * such window are the rows whose last_started_at is in it.
 */
export function cardViewersDelta(source: string): string {
  return `SELECT server_id, kind, key, user_id, sum(weight)::int AS plays, max(started_at) AS last_started_at FROM (
      ${viewerTargets(source)}
    ) AS viewed GROUP BY 1, 2, 3, 4`;
}

/**
 * Rows (server_id, kind, key, viewers) for play_card_viewer_counts (0020) from play_card_viewers rows `source`:
 * how many users ever played each movie, series or track. No window holds more distinct viewers of a key, so the
 * most-popular walk (stats/card-windows.ts) reads keys by this count and stops early.
 */
export function cardViewerCountsFrom(source: string): string {
  return `SELECT server_id, kind, key, count(*)::int AS viewers FROM ${source} GROUP BY 1, 2, 3`;
}

/**
 * After history rows `source` (with a `weight` column) were deleted or changed: subtracts their plays from
 * play_card_viewers and takes each pair's last play again from the history (the deleted one may have been it);
 * pairs left without plays are removed.
 */
export function cardViewersRecount(source: string): string {
  const recount = VIEWED_KINDS.map(
    (kind) => `
    UPDATE play_card_viewers v SET last_started_at = (
      SELECT max(h.started_at) FROM playback_history h
      WHERE h.server_id = v.server_id AND h.${CARD_KINDS[kind].key} = v.key AND h.user_id = v.user_id AND h.${CARD_KINDS[kind].filter.replaceAll(' AND ', ' AND h.')})
    FROM (SELECT DISTINCT server_id, kind, key, user_id FROM (${viewerTargets(source)}) AS t) AS c
    WHERE v.kind = '${kind}' AND (v.server_id, v.kind, v.key, v.user_id) = (c.server_id, c.kind, c.key, c.user_id);`,
  ).join('');
  // Only the pairs the changed rows name can have dropped to no plays: the clean-up looks at those alone (a
  // scan of the whole table on every extended play made a write cost grow with the history).
  return `
    UPDATE play_card_viewers v SET plays = v.plays - d.plays
    FROM (${cardViewersDelta(source)}) AS d
    WHERE (v.server_id, v.kind, v.key, v.user_id) = (d.server_id, d.kind, d.key, d.user_id);
    ${recount}
    DELETE FROM play_card_viewers v
    USING (SELECT DISTINCT server_id, kind, key, user_id FROM (${viewerTargets(source)}) AS t) AS c
    WHERE (v.server_id, v.kind, v.key, v.user_id) = (c.server_id, c.kind, c.key, c.user_id)
      AND (v.plays <= 0 OR v.last_started_at IS NULL);`;
}

/** Used by the 0004 migration: rollups and totals of the history already there. */
export const ROLLUP_BACKFILL_SQL = `
INSERT INTO play_rollups (server_id, bucket, library_id, play_method, plays, played_seconds)
${rollupDelta('playback_history')};
INSERT INTO play_totals (server_id, scope, key, plays, played_seconds)
${totalsDelta('playback_history')};
`;

/**
 * Every table derived from playback_history for the statistics and the search: play_rollups and play_totals, which writers
 * and deleters keep directly, and the levels that triggers on play_rollups derive from it (daily: 0006;
 * library quarter hours and hours for the charts: 0013; months × quarter of the day for the hour chart: 0020; day slots for the day and weekday charts: 0037, history/day-slots-sql.ts;
 * months × library × method from the daily level: 0027),
 * the cards' rollups and viewers that triggers on playback_history keep (0018), and the viewer counts per key
 * that triggers on play_card_viewers keep (0020), the year in review's genres per month and binge runs that
 * triggers on playback_history and item_genres keep (0028), the year's tops per item or series (0031, kept by
 * the same trigger on playback_history), and the search's dictionary (0025, search-terms.ts) and its words (0041, search-words.ts).
 */
export const ROLLUP_TABLES = [
  'play_rollups',
  'play_totals',
  'play_rollups_daily',
  'play_rollups_by_library',
  'play_rollups_by_library_hourly',
  'play_card_rollups',
  'play_card_viewers',
  'play_rollups_by_library_month_quarter',
  'play_card_viewer_counts',
  'play_rollups_by_library_day_slots',
  'play_rollups_by_library_method_month',
  'play_genre_rollups',
  'play_binge_runs',
  'play_year_tops',
  'history_search_terms',
  'history_search_values',
  ...SEARCH_WORD_TABLES,
] as const;

/**
 * Rebuilds every rollup level from the history (restore, tests, seeding): empties all of ROLLUP_TABLES, so no
 * level can be left stale, then inserts play_rollups (whose triggers fill the derived levels), play_totals and
 * play_card_rollups and play_card_viewers (whose trigger fills play_card_viewer_counts), play_genre_rollups and
 * play_binge_runs, play_year_tops; and recounts user_last_plays from the rebuilt play_totals.
 * Run it inside the transaction that changed the history.
 */
export const REBUILD_ROLLUPS_SQL = `TRUNCATE ${ROLLUP_TABLES.map((table) => `public.${table}`).join(', ')};
${ROLLUP_BACKFILL_SQL}
INSERT INTO play_card_rollups (server_id, kind, span, key, bucket, plays, played_seconds)
${cardRollupDelta('(SELECT *, 1 AS weight FROM playback_history)')};
INSERT INTO play_card_viewers (server_id, kind, key, user_id, plays, last_started_at)
${cardViewersDelta('(SELECT *, 1 AS weight FROM playback_history)')};
${reviewRollupsBackfill()}
${SEARCH_TERMS_REBUILD_SQL}
${RECOUNT_USER_LAST_PLAYS_SQL}`;

/**
 * The text the history search matches (user, title, client, device, address), joined by single spaces. The
 * search finds its candidates in the dictionary of these fields' values (search-terms.ts) and checks this text
 * on them. (0004 built a trigram index on exactly this expression; 0025 dropped it.)
 */
export const HISTORY_SEARCH_TEXT = `lower(coalesce(user_name, '') || ' ' || coalesce(series_name, '') || ' ' || item_name || ' ' || coalesce(client, '')
        || ' ' || coalesce(device_name, '') || ' ' || coalesce(remote_end_point, ''))`;
