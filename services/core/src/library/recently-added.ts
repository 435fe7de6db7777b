import type { Database } from '../db/database.js';

/** SPEC.md §2 Recently added: newest movies, episodes and tracks; episodes of one season grouped when asked. */
export const RECENTLY_ADDED_LIMIT = 30;
/** How many newest items grouping looks at: enough for a busy week, bounded so the query stays an index scan. */
const GROUPING_WINDOW = 1000;

interface RecentRow {
  id: string;
  type: string;
  name: string;
  series_id: string | null;
  series_name: string | null;
  season_id: string | null;
  season_number: number | null;
  episode_number: number | null;
  date_created: Date | null;
  image_hash: string | null;
  new_episodes: number;
}

export async function recentlyAdded(
  db: Database,
  serverId: string,
  options: { group: boolean; libraryId?: string | undefined; limit?: number },
) {
  const limit = options.limit ?? RECENTLY_ADDED_LIMIT;
  const bind: unknown[] = [serverId];
  let library = '';
  if (options.libraryId) {
    bind.push(options.libraryId);
    library = 'AND library_id = $2';
  }
  const recent = `SELECT * FROM items WHERE server_id = $1 AND NOT archived AND type IN ('Movie', 'Episode', 'Audio', 'Series')
    AND date_created IS NOT NULL ${library} ORDER BY date_created DESC, id LIMIT ${options.group ? GROUPING_WINDOW : limit}`;
  // Grouped, the new episodes of one season are one Episode row (the newest) carrying their count. Either way a
  // Series is left out when its own episodes are listed: the episodes say more than "a series was added".
  const picked = options.group
    ? `SELECT DISTINCT ON (group_key) *, count(*) FILTER (WHERE type = 'Episode') OVER (PARTITION BY group_key)::int AS new_episodes
       FROM (SELECT *, CASE WHEN type = 'Episode' AND season_id IS NOT NULL THEN season_id ELSE id END AS group_key FROM recent) AS keyed
       ORDER BY group_key, date_created DESC, id`
    : `SELECT *, 0 AS new_episodes FROM recent`;
  const rows = await db.query<RecentRow>(
    `WITH recent AS (${recent})
     SELECT id, type, name, series_id, series_name, season_id, parent_index_number AS season_number, index_number AS episode_number,
       date_created, primary_image_hash AS image_hash, new_episodes
     FROM (${picked}) AS picked
     WHERE NOT (type = 'Series' AND EXISTS (SELECT 1 FROM recent e WHERE e.type = 'Episode' AND e.series_id = picked.id))
     ORDER BY date_created DESC, id LIMIT ${limit}`,
    bind,
  );
  return rows.map((row) => ({
    Id: row.id,
    Type: row.type,
    Name: row.name,
    SeriesId: row.series_id,
    SeriesName: row.series_name,
    SeasonId: row.season_id,
    EpisodeId: row.type === 'Episode' ? row.id : null,
    // Only episodes have season and episode numbers: a track's index is its track number, not an episode.
    SeasonNumber: row.type === 'Episode' ? row.season_number : null,
    EpisodeNumber: row.type === 'Episode' && row.new_episodes <= 1 ? row.episode_number : null,
    NewEpisodeCount: options.group && row.type === 'Episode' ? row.new_episodes : null,
    DateCreated: row.date_created ? new Date(row.date_created).toISOString() : null,
    PrimaryImageHash: row.image_hash,
  }));
}
