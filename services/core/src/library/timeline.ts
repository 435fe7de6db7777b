import type { Database } from '../db/database.js';

/**
 * SPEC.md §2 Timeline: what a user watched in some libraries, newest first. Plays that follow each other on
 * the same movie, or on the same show, are one entry; consecutive seasons of a show are merged into one
 * entry ("Season 1 - Season 3") with the number of different episodes watched.
 */
export interface TimelineEntry {
  Title: string;
  SeasonName: string | null;
  MediaType: string;
  EpisodeCount: number | null;
  FirstActivityDate: string;
  LastActivityDate: string;
  NowPlayingItemId: string;
}

/** The newest entries shown: a heavy user's whole history would be megabytes nobody scrolls through. */
export const TIMELINE_LIMIT = 1000;
/** The newest plays read to build them: bounds the cost for users with years of daily plays. */
export const TIMELINE_PLAYS = 20_000;

interface RunRow {
  item_id: string;
  item_name: string;
  item_type: string | null;
  series_id: string | null;
  series_name: string | null;
  episodes: number;
  first_season: number | null;
  last_season: number | null;
  first_at: Date;
  last_at: Date;
  run: number;
  scanned: number;
}

/**
 * Runs are found in SQL (gaps and islands: a new run starts where the show or movie changes), so only the
 * entries leave the database, not every play. The newest 20,000 plays of the user are read (a run cut by that
 * limit is left out).
 */
export async function activityTimeline(db: Database, serverId: string, userId: string, libraryIds: string[]): Promise<TimelineEntry[]> {
  const runs = await db.query<RunRow>(
    `WITH newest AS (
       SELECT id, started_at, item_id, item_name, item_type, series_id, series_name, season_number
       FROM playback_history WHERE server_id = $1 AND user_id = $2 AND library_id = ANY($3::text[])
       ORDER BY started_at DESC, id DESC LIMIT ${TIMELINE_PLAYS}
     ), plays AS (
       SELECT *, COALESCE('s:' || series_id, 'i:' || item_id) AS show, count(*) OVER () AS scanned FROM newest
     ), marked AS (
       SELECT *, CASE WHEN show IS DISTINCT FROM lag(show) OVER (ORDER BY started_at, id) THEN 1 ELSE 0 END AS starts_run FROM plays
     ), numbered AS (
       SELECT *, sum(starts_run) OVER (ORDER BY started_at, id) AS run FROM marked
     )
     SELECT min(item_id) AS item_id, (array_agg(item_name ORDER BY started_at))[1] AS item_name, max(item_type) AS item_type,
       min(series_id) AS series_id, max(series_name) AS series_name, count(DISTINCT item_id)::int AS episodes,
       min(season_number) AS first_season, max(season_number) AS last_season, min(started_at) AS first_at, max(started_at) AS last_at,
       run, max(scanned)::int AS scanned
     FROM numbered GROUP BY run ORDER BY run DESC LIMIT ${TIMELINE_LIMIT}`,
    [serverId, userId, libraryIds],
  );
  // When the play limit was reached, the oldest run may have begun earlier than what was read: leave it out.
  const complete = runs.filter((run) => !(run.scanned >= TIMELINE_PLAYS && Number(run.run) === 1));
  return complete.map((run) => {
    const series = run.series_id !== null;
    const seasons =
      run.first_season === null
        ? null
        : run.first_season === run.last_season
          ? `Season ${run.first_season}`
          : `Season ${run.first_season} - Season ${run.last_season}`;
    return {
      Title: series ? (run.series_name ?? run.item_name) : run.item_name,
      SeasonName: series ? seasons : null,
      MediaType: series ? 'Series' : (run.item_type ?? 'Movie'),
      EpisodeCount: series ? run.episodes : null,
      FirstActivityDate: new Date(run.first_at).toISOString(),
      LastActivityDate: new Date(run.last_at).toISOString(),
      NowPlayingItemId: run.series_id ?? run.item_id,
    };
  });
}
