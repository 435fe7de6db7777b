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

interface PlayRow {
  item_id: string;
  item_name: string;
  item_type: string | null;
  series_id: string | null;
  series_name: string | null;
  season_number: number | null;
  started_at: Date;
}

export async function activityTimeline(db: Database, serverId: string, userId: string, libraryIds: string[]): Promise<TimelineEntry[]> {
  const plays = await db.query<PlayRow>(
    `SELECT item_id, item_name, item_type, series_id, series_name, season_number, started_at FROM playback_history
     WHERE server_id = $1 AND user_id = $2 AND library_id = ANY($3::text[]) ORDER BY started_at, id`,
    [serverId, userId, libraryIds],
  );
  interface Run {
    key: string;
    entry: TimelineEntry;
    episodes: Set<string>;
    seasons: number[];
  }
  const runs: Run[] = [];
  for (const play of plays) {
    const key = play.series_id ? `series:${play.series_id}` : `item:${play.item_id}`;
    const at = new Date(play.started_at).toISOString();
    let run = runs[runs.length - 1];
    if (!run || run.key !== key) {
      run = {
        key,
        episodes: new Set(),
        seasons: [],
        entry: {
          Title: play.series_id ? (play.series_name ?? play.item_name) : play.item_name,
          SeasonName: null,
          MediaType: play.series_id ? 'Series' : (play.item_type ?? 'Movie'),
          EpisodeCount: null,
          FirstActivityDate: at,
          LastActivityDate: at,
          NowPlayingItemId: play.series_id ?? play.item_id,
        },
      };
      runs.push(run);
    }
    run.entry.LastActivityDate = at;
    if (play.series_id) {
      run.episodes.add(play.item_id);
      if (play.season_number !== null && !run.seasons.includes(play.season_number)) run.seasons.push(play.season_number);
    }
  }
  return runs
    .map((run) => {
      if (run.key.startsWith('series:')) {
        const seasons = [...run.seasons].sort((a, b) => a - b);
        run.entry.EpisodeCount = run.episodes.size;
        run.entry.SeasonName =
          seasons.length === 0
            ? null
            : seasons.length === 1
              ? `Season ${seasons[0]}`
              : `Season ${seasons[0]} - Season ${seasons[seasons.length - 1]}`;
      }
      return run.entry;
    })
    .reverse();
}
