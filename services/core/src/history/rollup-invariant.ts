import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import {
  cardRollupDelta,
  cardViewerCountsFrom,
  cardViewersDelta,
  libraryMethodMonthRollupsFrom,
  libraryMonthQuarterRollupsFrom,
  rollupDelta,
  totalsDelta,
} from './rollup-sql.js';
import { daySlotsUnnested, libraryDaySlotsFrom } from './day-slots-sql.js';
import { bingeRunsFrom, genreRollupDelta, yearTopsDelta } from './review-rollup-sql.js';
import { LIBRARY_ITEM_FIGURES, libraryItemDelta } from '../library/library-item-counts.js';
import { searchTermsDelta, searchValuesFrom, sureDomainsOf } from './search-terms.js';
import { wordKeysFrom, wordsFrom } from './search-words.js';
import { userLastPlaysFrom } from './user-last-plays.js';

/**
 * The statistics invariant: play_rollups (quarter hours), play_rollups_daily (UTC days), the charts' library
 * levels (play_rollups_by_library: quarter hours, play_rollups_by_library_hourly: UTC hours) and play_totals
 * (all time per user, item, library), and the cards' rollups (play_card_rollups: UTC days, UTC months, all time
 * per movie, series, track, user, library, client, method; play_card_viewers: plays and last play per movie,
 * series or track and user; play_card_viewer_counts: users per movie, series or track; and the hour chart's
 * play_rollups_by_library_month_quarter: UTC month × quarter of the day × library; the day charts'
 * play_rollups_by_library_day_slots: the first i quarter hours of each UTC day × library, one difference per slot; play_rollups_by_library_method_month:
 * UTC month × library × playback method; the year in review's play_genre_rollups: UTC month × genre per user and
 * server, play_binge_runs: each user's runs of plays, and play_year_tops: UTC year × item or series of the
 * server; and the search's dictionary history_search_terms: plays
 * per field value and key, history_search_values: plays per field value; and a term flagged sure holds every play
 * of its key in its kind, level search_sure: expected the key's plays, stored the term's; and its words, which
 * follow the stored terms: levels search_word_keys and search_words, "plays" 1 where a row is, "seconds" 1 where a
 * word's key is sure, a stored sure flag no term gives being a difference) equal what playback_history (and
 * item_genres) holds; and library_item_counts (per library: counts, files, size, runtime of the items not archived;
 * level library_items, one difference per figure in "plays") equals what items holds; and user_last_plays (each user's
 * newest play with the fields the users table shows; level user_last_plays: "plays" are history ids, "seconds" the
 * starts) equals the history's. For card_viewers, the "seconds" of a difference
 * are the last play's start (epoch seconds). Every writer keeps it in the same
 * statement as its history change (writeHistory, deletePlays); this recomputes every level from the
 * history and lists every difference, for tests, `npm run check:rollups` and operators.
 *
 * Stored rows that reached zero are not differences: deletePlays keeps them (see delete-plays.ts).
 */
export interface RollupDifference {
  level:
    | 'quarter_hour'
    | 'daily'
    | 'library_quarter_hour'
    | 'library_hourly'
    | 'library_month_quarter'
    | 'library_day_slots'
    | 'library_method_month'
    | 'totals'
    | 'cards'
    | 'card_viewers'
    | 'card_viewer_counts'
    | 'genres'
    | 'binge_runs'
    | 'year_tops'
    | 'search_terms'
    | 'search_values'
    | 'search_sure'
    | 'search_word_keys'
    | 'search_words'
    | 'library_items'
    | 'user_last_plays';
  serverId: string;
  /** The row's key: bucket/library/method for the rollups, scope/key for the totals, kind/span/bucket/key for the cards. */
  key: string;
  expectedPlays: number;
  expectedSeconds: number;
  storedPlays: number;
  storedSeconds: number;
}

const DAY = (column: string) => `to_timestamp(floor(extract(epoch FROM ${column}) / 86400) * 86400)`;
const HOUR = (column: string) => `to_timestamp(floor(extract(epoch FROM ${column}) / 3600) * 3600)`;

/** Expected and stored rows of one library level (server_id, bucket, library_id), bucketed by `bucketOf`. */
const libraryLevel = (name: string, table: string, bucketOf: (column: string) => string) => `
${name}_expected AS (
  SELECT server_id, ${bucketOf('bucket')} AS bucket, library_id, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds
  FROM quarter_expected GROUP BY 1, 2, 3
), ${name}_stored AS (
  SELECT server_id, bucket, library_id, plays, played_seconds FROM ${table}
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
)`;

const libraryDifferences = (level: string, name: string) => `
SELECT '${level}', COALESCE(e.server_id, s.server_id),
  concat_ws(' ', to_char(COALESCE(e.bucket, s.bucket) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"'), COALESCE(e.library_id, s.library_id)),
  COALESCE(e.plays, 0), COALESCE(e.played_seconds, 0), COALESCE(s.plays, 0), COALESCE(s.played_seconds, 0)
FROM ${name}_expected e FULL JOIN ${name}_stored s USING (server_id, bucket, library_id)
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds`;

/**
 * Differences of a level keyed by (server_id, bucket, ...columns) from `${name}_expected` and `${name}_stored`,
 * the key shown as the bucket (in `format`) and the columns.
 */
const bucketedDifferences = (level: string, name: string, format: string, columns: string[]) => `
SELECT '${level}', COALESCE(e.server_id, s.server_id),
  concat_ws(' ', to_char(COALESCE(e.bucket, s.bucket) AT TIME ZONE 'UTC', '${format}'), ${columns.map((column) => `COALESCE(e.${column}, s.${column})`).join(', ')}),
  COALESCE(e.plays, 0), COALESCE(e.played_seconds, 0), COALESCE(s.plays, 0), COALESCE(s.played_seconds, 0)
FROM ${name}_expected e FULL JOIN ${name}_stored s USING (server_id, bucket, ${columns.join(', ')})
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds`;

/** The check as one SQL statement ($1: a server id, or NULL for every server). */
export const ROLLUP_DIFFERENCES_SQL = `
WITH history AS (
  SELECT * FROM playback_history WHERE $1::uuid IS NULL OR server_id = $1::uuid
), library_items_expected AS (
  ${libraryItemDelta('(SELECT *, 1 AS weight FROM items WHERE $1::uuid IS NULL OR server_id = $1::uuid)')}
), library_items_stored AS (
  SELECT server_id, library_id, ${LIBRARY_ITEM_FIGURES.join(', ')} FROM library_item_counts
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (${LIBRARY_ITEM_FIGURES.map((f) => `${f} <> 0`).join(' OR ')})
), last_plays_expected AS (${userLastPlaysFrom('history')}),
last_plays_stored AS (
  SELECT server_id, user_id, history_id, started_at, item_id, item_name, series_name, client FROM user_last_plays
  WHERE $1::uuid IS NULL OR server_id = $1::uuid
), quarter_expected AS (${rollupDelta('history')}),
quarter_stored AS (
  SELECT server_id, bucket, library_id, play_method, plays, played_seconds FROM play_rollups
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
), daily_expected AS (
  SELECT server_id, ${DAY('bucket')} AS bucket, library_id, play_method, sum(plays)::int AS plays,
    sum(played_seconds)::bigint AS played_seconds
  FROM quarter_expected GROUP BY 1, 2, 3, 4
), daily_stored AS (
  SELECT server_id, bucket, library_id, play_method, plays, played_seconds FROM play_rollups_daily
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
), ${libraryLevel('library_quarter', 'play_rollups_by_library', (column) => column)},
${libraryLevel('library_hourly', 'play_rollups_by_library_hourly', HOUR)},
day_slots_expected AS (
  SELECT * FROM (${daySlotsUnnested(libraryDaySlotsFrom('quarter_expected'))}) AS e WHERE plays <> 0 OR played_seconds <> 0
),
day_slots_stored AS (
  SELECT * FROM (${daySlotsUnnested('(SELECT * FROM play_rollups_by_library_day_slots WHERE $1::uuid IS NULL OR server_id = $1::uuid)')}) AS s
  WHERE plays <> 0 OR played_seconds <> 0
),
month_quarter_expected AS (${libraryMonthQuarterRollupsFrom('quarter_expected')}),
month_quarter_stored AS (
  SELECT server_id, bucket, quarter, library_id, plays, played_seconds FROM play_rollups_by_library_month_quarter
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
),
method_month_expected AS (${libraryMethodMonthRollupsFrom('daily_expected')}),
method_month_stored AS (
  SELECT server_id, bucket, library_id, play_method, plays, played_seconds FROM play_rollups_by_library_method_month
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
),
totals_expected AS (${totalsDelta('history')}),
totals_stored AS (
  SELECT server_id, scope, key, plays, played_seconds FROM play_totals
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
), cards_expected AS (${cardRollupDelta('(SELECT *, 1 AS weight FROM history)')}),
cards_stored AS (
  SELECT server_id, kind, span, key, bucket, plays, played_seconds FROM play_card_rollups
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
), viewers_expected AS (
  SELECT server_id, kind, key, user_id, plays, extract(epoch FROM last_started_at)::bigint AS last_started
  FROM (${cardViewersDelta('(SELECT *, 1 AS weight FROM history)')}) AS v
), viewers_stored AS (
  SELECT server_id, kind, key, user_id, plays, extract(epoch FROM last_started_at)::bigint AS last_started FROM play_card_viewers
  WHERE $1::uuid IS NULL OR server_id = $1::uuid
), viewer_counts_expected AS (${cardViewerCountsFrom('viewers_expected')}),
viewer_counts_stored AS (
  SELECT server_id, kind, key, viewers FROM play_card_viewer_counts WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND viewers <> 0
), genres_expected AS (${genreRollupDelta('(SELECT *, 1 AS weight FROM history)')}),
genres_stored AS (
  SELECT server_id, user_id, month, genre, plays, played_seconds FROM play_genre_rollups
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
), runs_expected AS (${bingeRunsFrom('history')}),
runs_stored AS (
  SELECT server_id, user_id, started_at, last_started_at, ended_at, plays, played_seconds FROM play_binge_runs
  WHERE $1::uuid IS NULL OR server_id = $1::uuid
), year_tops_expected AS (${yearTopsDelta('(SELECT *, 1 AS weight FROM history)')}),
year_tops_stored AS (
  SELECT server_id, year::int AS year, kind, key, plays, played_seconds FROM play_year_tops
  WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND (plays <> 0 OR played_seconds <> 0)
), terms_expected AS (${searchTermsDelta('history')}),
terms_stored AS (
  SELECT server_id, kind, key, value, plays FROM history_search_terms WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND plays <> 0
), sure_domains AS (${sureDomainsOf('history')}),
sure_wrong AS (
  SELECT t.server_id, t.kind, t.key, t.value, t.plays, COALESCE(d.plays, 0) AS domain_plays
  FROM history_search_terms t LEFT JOIN sure_domains d ON d.server_id = t.server_id AND d.kind = t.kind AND d.key = t.key
  WHERE ($1::uuid IS NULL OR t.server_id = $1::uuid) AND t.sure AND t.plays > 0 AND t.plays IS DISTINCT FROM d.plays
), word_keys_expected AS (
  ${wordKeysFrom('(SELECT * FROM history_search_terms WHERE $1::uuid IS NULL OR server_id = $1::uuid)')}
), word_keys_stored AS (
  SELECT server_id, word, kind, key, sure FROM history_search_word_keys WHERE $1::uuid IS NULL OR server_id = $1::uuid
), words_expected AS (${wordsFrom('word_keys_expected')}),
words_stored AS (
  SELECT server_id, word FROM history_search_words WHERE $1::uuid IS NULL OR server_id = $1::uuid
), values_expected AS (${searchValuesFrom('terms_expected')}),
values_stored AS (
  SELECT server_id, kind, value, plays FROM history_search_values WHERE ($1::uuid IS NULL OR server_id = $1::uuid) AND plays <> 0
)
SELECT 'quarter_hour' AS level, COALESCE(e.server_id, s.server_id) AS server_id,
  concat_ws(' ', to_char(COALESCE(e.bucket, s.bucket) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"'), COALESCE(e.library_id, s.library_id),
    COALESCE(e.play_method, s.play_method)) AS key,
  COALESCE(e.plays, 0) AS expected_plays, COALESCE(e.played_seconds, 0) AS expected_seconds,
  COALESCE(s.plays, 0) AS stored_plays, COALESCE(s.played_seconds, 0) AS stored_seconds
FROM quarter_expected e FULL JOIN quarter_stored s USING (server_id, bucket, library_id, play_method)
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds
UNION ALL
SELECT 'daily', COALESCE(e.server_id, s.server_id),
  concat_ws(' ', to_char(COALESCE(e.bucket, s.bucket) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), COALESCE(e.library_id, s.library_id),
    COALESCE(e.play_method, s.play_method)),
  COALESCE(e.plays, 0), COALESCE(e.played_seconds, 0), COALESCE(s.plays, 0), COALESCE(s.played_seconds, 0)
FROM daily_expected e FULL JOIN daily_stored s USING (server_id, bucket, library_id, play_method)
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds
UNION ALL ${libraryDifferences('library_quarter_hour', 'library_quarter')}
UNION ALL ${libraryDifferences('library_hourly', 'library_hourly')}
UNION ALL
${bucketedDifferences('library_month_quarter', 'month_quarter', 'YYYY-MM', ['quarter', 'library_id'])}
UNION ALL ${bucketedDifferences('library_day_slots', 'day_slots', 'YYYY-MM-DD', ['slot', 'library_id'])}
UNION ALL ${bucketedDifferences('library_method_month', 'method_month', 'YYYY-MM', ['library_id', 'play_method'])}
UNION ALL
SELECT 'totals', COALESCE(e.server_id, s.server_id), COALESCE(e.scope, s.scope) || ' ' || COALESCE(e.key, s.key),
  COALESCE(e.plays, 0), COALESCE(e.played_seconds, 0), COALESCE(s.plays, 0), COALESCE(s.played_seconds, 0)
FROM totals_expected e FULL JOIN totals_stored s USING (server_id, scope, key)
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds
UNION ALL
SELECT 'cards', COALESCE(e.server_id, s.server_id),
  concat_ws(' ', COALESCE(e.kind, s.kind), COALESCE(e.span, s.span), to_char(COALESCE(e.bucket, s.bucket) AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
    COALESCE(e.key, s.key)),
  COALESCE(e.plays, 0), COALESCE(e.played_seconds, 0), COALESCE(s.plays, 0), COALESCE(s.played_seconds, 0)
FROM cards_expected e FULL JOIN cards_stored s USING (server_id, kind, span, key, bucket)
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds
UNION ALL
SELECT 'card_viewers', COALESCE(e.server_id, s.server_id), concat_ws(' ', COALESCE(e.kind, s.kind), COALESCE(e.key, s.key), COALESCE(e.user_id, s.user_id)),
  COALESCE(e.plays, 0), COALESCE(e.last_started, 0), COALESCE(s.plays, 0), COALESCE(s.last_started, 0)
FROM viewers_expected e FULL JOIN viewers_stored s USING (server_id, kind, key, user_id)
WHERE e.plays IS DISTINCT FROM s.plays OR e.last_started IS DISTINCT FROM s.last_started
UNION ALL
SELECT 'card_viewer_counts', COALESCE(e.server_id, s.server_id), concat_ws(' ', COALESCE(e.kind, s.kind), COALESCE(e.key, s.key)),
  COALESCE(e.viewers, 0), 0, COALESCE(s.viewers, 0), 0
FROM viewer_counts_expected e FULL JOIN viewer_counts_stored s USING (server_id, kind, key)
WHERE e.viewers IS DISTINCT FROM s.viewers
UNION ALL
SELECT 'genres', COALESCE(e.server_id, s.server_id),
  concat_ws(' ', to_char(COALESCE(e.month, s.month) AT TIME ZONE 'UTC', 'YYYY-MM'), COALESCE(e.user_id, s.user_id), COALESCE(e.genre, s.genre)),
  COALESCE(e.plays, 0), COALESCE(e.played_seconds, 0), COALESCE(s.plays, 0), COALESCE(s.played_seconds, 0)
FROM genres_expected e FULL JOIN genres_stored s USING (server_id, user_id, month, genre)
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds
UNION ALL
SELECT 'binge_runs', COALESCE(e.server_id, s.server_id),
  concat_ws(' ', COALESCE(e.user_id, s.user_id), COALESCE(e.started_at, s.started_at), COALESCE(e.last_started_at, s.last_started_at),
    COALESCE(e.ended_at, s.ended_at)),
  COALESCE(e.plays, 0), COALESCE(e.played_seconds, 0), COALESCE(s.plays, 0), COALESCE(s.played_seconds, 0)
FROM runs_expected e FULL JOIN runs_stored s USING (server_id, user_id, started_at, last_started_at, ended_at)
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds
UNION ALL
SELECT 'year_tops', COALESCE(e.server_id, s.server_id),
  concat_ws(' ', COALESCE(e.year, s.year), COALESCE(e.kind, s.kind), COALESCE(e.key, s.key)),
  COALESCE(e.plays, 0), COALESCE(e.played_seconds, 0), COALESCE(s.plays, 0), COALESCE(s.played_seconds, 0)
FROM year_tops_expected e FULL JOIN year_tops_stored s USING (server_id, year, kind, key)
WHERE e.plays IS DISTINCT FROM s.plays OR e.played_seconds IS DISTINCT FROM s.played_seconds
UNION ALL
SELECT 'search_terms', COALESCE(e.server_id, s.server_id), concat_ws(' ', COALESCE(e.kind, s.kind), COALESCE(e.key, s.key), COALESCE(e.value, s.value)),
  COALESCE(e.plays, 0), 0, COALESCE(s.plays, 0), 0
FROM terms_expected e FULL JOIN terms_stored s USING (server_id, kind, key, value)
WHERE e.plays IS DISTINCT FROM s.plays
UNION ALL
SELECT 'search_values', COALESCE(e.server_id, s.server_id), concat_ws(' ', COALESCE(e.kind, s.kind), COALESCE(e.value, s.value)),
  COALESCE(e.plays, 0), 0, COALESCE(s.plays, 0), 0
FROM values_expected e FULL JOIN values_stored s USING (server_id, kind, value)
WHERE e.plays IS DISTINCT FROM s.plays
UNION ALL
SELECT 'search_sure', server_id, concat_ws(' ', kind, key, value), domain_plays, 0, plays, 0 FROM sure_wrong
UNION ALL
SELECT 'search_word_keys', COALESCE(e.server_id, s.server_id), concat_ws(' ', COALESCE(e.word, s.word), COALESCE(e.kind, s.kind), COALESCE(e.key, s.key)),
  (e.server_id IS NOT NULL)::int, COALESCE(e.sure, false)::int, (s.server_id IS NOT NULL)::int, COALESCE(s.sure, false)::int
FROM word_keys_expected e FULL JOIN word_keys_stored s USING (server_id, word, kind, key)
WHERE e.server_id IS NULL OR s.server_id IS NULL OR (s.sure AND NOT e.sure)
UNION ALL
SELECT 'search_words', COALESCE(e.server_id, s.server_id), COALESCE(e.word, s.word),
  (e.server_id IS NOT NULL)::int, 0, (s.server_id IS NOT NULL)::int, 0
FROM words_expected e FULL JOIN words_stored s USING (server_id, word)
WHERE e.server_id IS NULL OR s.server_id IS NULL
UNION ALL
SELECT 'library_items', COALESCE(e.server_id, s.server_id), concat_ws(' ', COALESCE(e.library_id, s.library_id), f.figure),
  f.expected, 0, f.stored, 0
FROM library_items_expected e FULL JOIN library_items_stored s USING (server_id, library_id)
CROSS JOIN LATERAL (VALUES ${LIBRARY_ITEM_FIGURES.map((f) => `('${f}', COALESCE(e.${f}, 0), COALESCE(s.${f}, 0))`).join(', ')}) AS f(figure, expected, stored)
WHERE f.expected <> f.stored
UNION ALL
SELECT 'user_last_plays', COALESCE(e.server_id, s.server_id), COALESCE(e.user_id, s.user_id),
  COALESCE(e.history_id, 0), COALESCE(extract(epoch FROM e.started_at), 0), COALESCE(s.history_id, 0), COALESCE(extract(epoch FROM s.started_at), 0)
FROM last_plays_expected e FULL JOIN last_plays_stored s USING (server_id, user_id)
WHERE (e.history_id, e.started_at, e.item_id, e.item_name, e.series_name, e.client)
  IS DISTINCT FROM (s.history_id, s.started_at, s.item_id, s.item_name, s.series_name, s.client)
ORDER BY 1, 2, 3`;

/** Every difference between the stored rollups and their recomputation from the history (empty = consistent). */
export async function findRollupDifferences(db: Database, serverId?: string, transaction?: Transaction): Promise<RollupDifference[]> {
  const rows = await db.query<{
    level: RollupDifference['level'];
    server_id: string;
    key: string;
    expected_plays: number | string;
    expected_seconds: number | string;
    stored_plays: number | string;
    stored_seconds: number | string;
  }>(ROLLUP_DIFFERENCES_SQL, [serverId ?? null], transaction);
  return rows.map((row) => ({
    level: row.level,
    serverId: row.server_id,
    key: row.key,
    expectedPlays: Number(row.expected_plays),
    expectedSeconds: Number(row.expected_seconds),
    storedPlays: Number(row.stored_plays),
    storedSeconds: Number(row.stored_seconds),
  }));
}
