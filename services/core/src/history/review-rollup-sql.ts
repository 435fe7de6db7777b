/**
 * SQL of the year in review's two tables (migration 0028), kept by statement triggers on playback_history (every
 * writer and deleter, in the statement that changes the history) and on item_genres (a sync, an import or a
 * purge that changes what genres an item carries):
 *  - play_genre_rollups: plays and watched seconds per UTC month × genre, per user and for the whole server
 *    (user_id ''). A play counts once for every genre of its item, or of its series when the item has none
 *    (as GENRE_TAGGED_PLAYS in stats/scope-queries.ts).
 *  - play_binge_runs: every run of two or more of one user's plays (ordered by start, then id) where each play
 *    starts at most BINGE_GAP_MINUTES after the previous one ended (its start plus its watched seconds).
 *  - play_year_tops (0031): the server's plays and watched seconds per UTC year × item (a play without a series:
 *    movies, tracks) or series (an episode counts for its series).
 */

/** Start of the UTC month of the history's started_at (as utcMonth in rollup-sql.ts, which imports this module). */
const UTC_MONTH = `(date_trunc('month', started_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** A binge: plays of one user, each starting at most this long after the previous one ended. */
export const BINGE_GAP_MINUTES = 30;

/** The end of a play: its start plus its watched seconds. */
export const PLAY_END = (alias = '') => `${alias}started_at + make_interval(secs => ${alias}played_seconds)`;

/**
 * Rows (server_id, user_id, month, genre, plays, played_seconds) for play_genre_rollups from history rows
 * `source` carrying a `weight` column (1 adds, -1 subtracts), tagged with the genres of `genres` (a relation
 * with server_id, item_id, genre): one row per user and one for the server (user_id '').
 */
export function genreRollupDelta(source: string, genres = 'item_genres'): string {
  return `WITH per_play AS (
      SELECT server_id, user_id, item_id, series_id, ${UTC_MONTH} AS month, sum(weight)::int AS plays,
        sum(weight * played_seconds)::bigint AS played_seconds
      FROM ${source} AS s GROUP BY 1, 2, 3, 4, 5
    )
    SELECT server_id, u AS user_id, month, genre, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      SELECT p.*, g.genre FROM per_play p JOIN ${genres} g ON g.server_id = p.server_id AND g.item_id = p.item_id
      UNION ALL
      SELECT p.*, g.genre FROM per_play p JOIN ${genres} g ON g.server_id = p.server_id AND g.item_id = p.series_id
      WHERE NOT EXISTS (SELECT 1 FROM ${genres} e WHERE e.server_id = p.server_id AND e.item_id = p.item_id)
    ) AS tagged CROSS JOIN LATERAL (VALUES (tagged.user_id), ('')) AS scopes(u)
    GROUP BY 1, 2, 3, 4 HAVING sum(plays) <> 0 OR sum(played_seconds) <> 0`;
}

/**
 * Rows (server_id, user_id, started_at, last_started_at, ended_at, plays, played_seconds) of play_binge_runs for
 * the history rows `source` (server_id, user_id, id, started_at, played_seconds): every run of two or more of each
 * user's rows.
 */
export function bingeRunsFrom(source: string): string {
  const order = 'PARTITION BY server_id, user_id ORDER BY started_at, id';
  return `SELECT server_id, user_id, min(started_at) AS started_at, max(started_at) AS last_started_at, max(ended_at) AS ended_at,
      count(*)::int AS plays, sum(played_seconds)::bigint AS played_seconds
    FROM (
      SELECT *, sum(starts_run) OVER (${order} ROWS UNBOUNDED PRECEDING) AS run FROM (
        SELECT server_id, user_id, id, started_at, played_seconds, ${PLAY_END()} AS ended_at,
          CASE WHEN started_at - lag(${PLAY_END()}) OVER (${order}) <= make_interval(mins => ${BINGE_GAP_MINUTES}) THEN 0 ELSE 1 END AS starts_run
        FROM ${source} AS s
      ) AS marked
    ) AS numbered GROUP BY server_id, user_id, run HAVING count(*) > 1`;
}

/** What a play counts for in the year's tops: its item when it has no series ('item'), else its series. */
export const YEAR_TOP_KIND = (alias = '') => `CASE WHEN ${alias}series_id IS NULL THEN 'item' ELSE 'series' END`;
export const YEAR_TOP_KEY = (alias = '') => `COALESCE(${alias}series_id, ${alias}item_id)`;

/**
 * Rows (server_id, year, kind, key, plays, played_seconds) for play_year_tops from history rows `source` carrying
 * a `weight` column (1 adds, -1 subtracts).
 */
export function yearTopsDelta(source: string): string {
  return `SELECT server_id, extract(year FROM started_at AT TIME ZONE 'UTC')::int AS year, ${YEAR_TOP_KIND()} AS kind,
      ${YEAR_TOP_KEY()} AS key, sum(weight)::int AS plays, sum(weight * played_seconds)::bigint AS played_seconds
    FROM ${source} AS s GROUP BY 1, 2, 3, 4 HAVING sum(weight) <> 0 OR sum(weight * played_seconds) <> 0`;
}

const YEAR_TOP_COLUMNS = 'server_id, year, kind, key';

/** Adds the delta rows of yearTopsDelta to play_year_tops (only for servers that still exist). */
const addYearTops = (delta: string) => `
    INSERT INTO play_year_tops AS r (${YEAR_TOP_COLUMNS}, plays, played_seconds)
    SELECT ${YEAR_TOP_COLUMNS}, plays, played_seconds FROM (${delta}) AS d
    WHERE EXISTS (SELECT 1 FROM media_servers m WHERE m.id = d.server_id) ORDER BY 1, 2, 3, 4
    ON CONFLICT (${YEAR_TOP_COLUMNS}) DO UPDATE SET plays = r.plays + EXCLUDED.plays, played_seconds = r.played_seconds + EXCLUDED.played_seconds;`;

/** Subtracts history rows `source` from play_year_tops (rows left at zero stay, as the other levels' do). */
const subtractYearTops = (source: string) => `
    UPDATE play_year_tops r SET plays = r.plays - d.plays, played_seconds = r.played_seconds - d.played_seconds
    FROM (${yearTopsDelta(source)}) AS d
    WHERE (r.server_id, r.year, r.kind, r.key) = (d.server_id, d.year, d.kind, d.key);`;

const GENRE_KEY = 'server_id, user_id, month, genre';

/** Adds the delta rows of genreRollupDelta to play_genre_rollups (only for servers that still exist). */
export const addGenreRollups = (delta: string) => `
    INSERT INTO play_genre_rollups AS r (${GENRE_KEY}, plays, played_seconds)
    SELECT ${GENRE_KEY}, plays, played_seconds FROM (${delta}) AS d
    WHERE EXISTS (SELECT 1 FROM media_servers m WHERE m.id = d.server_id) ORDER BY 1, 2, 3, 4
    ON CONFLICT (${GENRE_KEY}) DO UPDATE SET plays = r.plays + EXCLUDED.plays, played_seconds = r.played_seconds + EXCLUDED.played_seconds;`;

/** Subtracts history rows `source` from play_genre_rollups (a delete: rows deleted with their server are not re-added). */
export const subtractGenreRollups = (source: string) => `
    UPDATE play_genre_rollups r SET plays = r.plays - d.plays, played_seconds = r.played_seconds - d.played_seconds
    FROM (${genreRollupDelta(source)}) AS d
    WHERE (r.server_id, r.user_id, r.month, r.genre) = (d.server_id, d.user_id, d.month, d.genre);`;

/**
 * PL/pgSQL: the runs of each (server, user) named in `changes` (server_id, user_id, started_at: the starts of
 * plays added or removed) computed again. A play added or removed at t changes only the run holding the play
 * before t and the run holding the play after t (the one whose "previous play" it becomes or stops being), so
 * the history between the start of the run holding the last play before the earliest change and the end of the
 * run holding the first play after the latest change is read again, and the stored runs starting in it are
 * replaced. (A run of one play is not stored: the play itself is its start and end.) The runs just outside keep
 * their plays: the gap before the first play of that range can only grow (the run break stays), and the play
 * after its end still follows the same play.
 */
export const recomputeBingeRuns = (changes: string) => `
    FOR b IN SELECT server_id, user_id, min(started_at) AS t_min, max(started_at) AS t_max FROM (${changes}) AS c GROUP BY 1, 2 LOOP
      SELECT max(started_at) INTO before_play FROM playback_history
        WHERE server_id = b.server_id AND user_id = b.user_id AND started_at < b.t_min;
      SELECT min(started_at) INTO after_play FROM playback_history
        WHERE server_id = b.server_id AND user_id = b.user_id AND started_at > b.t_max;
      SELECT COALESCE(
          (SELECT r.started_at FROM (SELECT * FROM play_binge_runs WHERE server_id = b.server_id AND user_id = b.user_id AND started_at <= before_play
             ORDER BY started_at DESC LIMIT 1) AS r WHERE r.last_started_at >= before_play),
          before_play, b.t_min)
        INTO lo;
      WITH gone AS (
        DELETE FROM play_binge_runs WHERE server_id = b.server_id AND user_id = b.user_id AND started_at >= lo
          AND (after_play IS NULL OR started_at <= after_play)
        RETURNING last_started_at
      ) SELECT GREATEST(b.t_max, after_play, max(last_started_at)) INTO hi FROM gone;
      INSERT INTO play_binge_runs (server_id, user_id, started_at, last_started_at, ended_at, plays, played_seconds)
      ${bingeRunsFrom(`(SELECT server_id, user_id, id, started_at, played_seconds FROM playback_history
          WHERE server_id = b.server_id AND user_id = b.user_id AND started_at >= lo AND started_at <= hi)`)};
    END LOOP;`;

/**
 * Rebuild of the year in review's tables from the whole history (`history`) and `genres` (restore, rebuild,
 * migration): the genres and binge runs (0028) and, unless `yearTops` is false (0028 itself), the year's tops (0031).
 */
export function reviewRollupsBackfill(
  history = 'playback_history',
  genres = 'item_genres',
  into = (table: string) => table,
  yearTops = true,
): string {
  return `INSERT INTO ${into('play_genre_rollups')} (${GENRE_KEY}, plays, played_seconds)
${genreRollupDelta(`(SELECT *, 1 AS weight FROM ${history})`, genres)};
INSERT INTO ${into('play_binge_runs')} (server_id, user_id, started_at, last_started_at, ended_at, plays, played_seconds)
${bingeRunsFrom(history)};
${yearTops ? yearTopsBackfill(history, into) : ''}`;
}

/** play_year_tops from the whole history (`history`). */
export function yearTopsBackfill(history = 'playback_history', into = (table: string) => table): string {
  return `INSERT INTO ${into('play_year_tops')} (${YEAR_TOP_COLUMNS}, plays, played_seconds)
${yearTopsDelta(`(SELECT *, 1 AS weight FROM ${history})`)};`;
}

/**
 * The statement trigger function that keeps the year in review's tables with playback_history (every insert,
 * update and delete): genres per month, binge runs and (with `yearTops`, from 0031 on) the year's tops.
 */
export function reviewHistoryTriggerFunction(yearTops: boolean): string {
  const changed = '(SELECT *, 1 AS weight FROM added_rows UNION ALL SELECT *, -1 FROM previous_rows)';
  return `
CREATE OR REPLACE FUNCTION playback_history_to_review() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  b record;
  lo timestamptz;
  hi timestamptz;
  before_play timestamptz;
  after_play timestamptz;
BEGIN
  IF TG_OP = 'DELETE' THEN
    ${subtractGenreRollups('(SELECT *, 1 AS weight FROM removed_rows)')}
    ${yearTops ? subtractYearTops('(SELECT *, 1 AS weight FROM removed_rows)') : ''}
    ${recomputeBingeRuns('SELECT server_id, user_id, started_at FROM removed_rows')}
  ELSIF TG_OP = 'UPDATE' THEN
    ${addGenreRollups(genreRollupDelta(changed))}
    ${yearTops ? addYearTops(yearTopsDelta(changed)) : ''}
    ${recomputeBingeRuns(`SELECT p.server_id, p.user_id, p.started_at FROM previous_rows p JOIN added_rows a ON a.id = p.id
        WHERE (a.server_id, a.user_id, a.started_at, a.played_seconds) IS DISTINCT FROM (p.server_id, p.user_id, p.started_at, p.played_seconds)
      UNION ALL SELECT a.server_id, a.user_id, a.started_at FROM previous_rows p JOIN added_rows a ON a.id = p.id
        WHERE (a.server_id, a.user_id, a.started_at, a.played_seconds) IS DISTINCT FROM (p.server_id, p.user_id, p.started_at, p.played_seconds)`)}
  ELSE
    ${addGenreRollups(genreRollupDelta('(SELECT *, 1 AS weight FROM added_rows)'))}
    ${yearTops ? addYearTops(yearTopsDelta('(SELECT *, 1 AS weight FROM added_rows)')) : ''}
    ${recomputeBingeRuns('SELECT server_id, user_id, started_at FROM added_rows')}
  END IF;
  RETURN NULL;
END $$;`;
}
