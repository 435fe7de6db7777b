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
  oldest_run: number;
  scanned: number;
}

/**
 * Runs are found in SQL (gaps and islands: a new run starts where the show or movie changes), so only the
 * entries leave the database, not every play. At most the newest 20,000 plays of the user are read, newest first,
 * from the per-user covering index alone (it carries the library, item, series and season: no table reads);
 * runs are numbered from the newest, and the names of each run's first play are read for the entries only.
 * A run cut by the play limit (the oldest one read) is left out.
 */
export async function activityTimeline(
  db: Database,
  serverId: string,
  userId: string,
  libraryIds: string[],
  limits: { plays: number; entries: number } = { plays: TIMELINE_PLAYS, entries: TIMELINE_LIMIT },
): Promise<TimelineEntry[]> {
  // Most users start a new entry every play or two, so twice as many plays as entries usually hold every entry
  // whole: read those first, and the full play limit only when they did not (a binge of long runs).
  const firstRead = Math.min(limits.plays, limits.entries * 2);
  let read = firstRead;
  let runs = await readRuns(db, serverId, userId, libraryIds, read, limits.entries);
  const cut = runs[0] !== undefined && runs[0].scanned >= read;
  if (read < limits.plays && cut && Number(runs[0]!.oldest_run) <= limits.entries) {
    read = limits.plays;
    runs = await readRuns(db, serverId, userId, libraryIds, read, limits.entries);
  }
  // When the play limit was reached, the oldest run may have begun earlier than what was read: leave it out.
  const complete = runs.filter((run) => !(run.scanned >= read && Number(run.run) === Number(run.oldest_run)));
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

/** The newest `entries` runs among the user's newest `plays` plays in those libraries, newest first. */
function readRuns(db: Database, serverId: string, userId: string, libraryIds: string[], plays: number, entries: number): Promise<RunRow[]> {
  return db.rows<RunRow>(
    `WITH newest AS (
       SELECT id, started_at, item_id, series_id, season_number, COALESCE('s:' || series_id, 'i:' || item_id) AS show
       FROM playback_history WHERE server_id = $1 AND user_id = $2 AND library_id = ANY($3::text[])
       ORDER BY started_at DESC, id DESC LIMIT $4
     ), marked AS (
       SELECT *, CASE WHEN show IS DISTINCT FROM lag(show) OVER newest_first THEN 1 ELSE 0 END AS starts_run,
         count(*) OVER () AS scanned
       FROM newest WINDOW newest_first AS (ORDER BY started_at DESC, id DESC)
     ), numbered AS (
       SELECT *, sum(starts_run) OVER (ORDER BY started_at DESC, id DESC) AS run, sum(starts_run) OVER () AS oldest_run FROM marked
     ), runs AS (
       -- Only the entries shown are aggregated (runs are numbered from the newest), not every run read.
       SELECT run, min(item_id) AS item_id, min(series_id) AS series_id, count(DISTINCT item_id)::int AS episodes,
         min(season_number) AS first_season, max(season_number) AS last_season, min(started_at) AS first_at,
         max(started_at) AS last_at, (array_agg(id ORDER BY started_at, id))[1] AS first_play, max(scanned)::int AS scanned,
         max(oldest_run) AS oldest_run
       FROM numbered WHERE run <= $5 GROUP BY run
     )
     SELECT runs.*, h.item_name, h.item_type, h.series_name
     FROM runs JOIN playback_history h ON h.id = runs.first_play
     ORDER BY runs.run`,
    [serverId, userId, libraryIds, plays, entries],
  );
}
