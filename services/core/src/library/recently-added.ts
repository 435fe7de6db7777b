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
  const rows = options.group
    ? await db.query<RecentRow>(
        `WITH recent AS (${recent}), grouped AS (
           SELECT CASE WHEN type = 'Episode' AND season_id IS NOT NULL THEN season_id ELSE id END AS group_id,
             count(*) FILTER (WHERE type = 'Episode')::int AS new_episodes, max(date_created) AS date_created
           FROM recent GROUP BY 1
         )
         SELECT g.group_id AS id, CASE WHEN g.new_episodes > 0 AND s.id IS NOT NULL THEN 'Season' ELSE COALESCE(s.type, i.type) END AS type,
           COALESCE(s.name, i.name) AS name, COALESCE(s.series_id, i.series_id) AS series_id,
           COALESCE(s.series_name, i.series_name) AS series_name, CASE WHEN s.id IS NOT NULL THEN s.id ELSE i.season_id END AS season_id,
           COALESCE(s.index_number, i.parent_index_number) AS season_number, CASE WHEN s.id IS NULL THEN i.index_number END AS episode_number,
           g.date_created, COALESCE(s.primary_image_hash, s.primary_image_tag, i.primary_image_hash, i.primary_image_tag) AS image_hash,
           g.new_episodes
         FROM grouped g
         LEFT JOIN items s ON s.server_id = $1 AND s.id = g.group_id AND s.type = 'Season'
         LEFT JOIN items i ON i.server_id = $1 AND i.id = g.group_id
         ORDER BY g.date_created DESC, g.group_id LIMIT ${limit}`,
        bind,
      )
    : await db.query<RecentRow>(
        `SELECT id, type, name, series_id, series_name, season_id, parent_index_number AS season_number, index_number AS episode_number,
           date_created, COALESCE(primary_image_hash, primary_image_tag) AS image_hash, 0 AS new_episodes
         FROM (${recent}) AS recent ORDER BY date_created DESC, id`,
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
    SeasonNumber: row.season_number,
    EpisodeNumber: row.episode_number,
    NewEpisodeCount: row.type === 'Season' ? row.new_episodes : null,
    DateCreated: row.date_created ? new Date(row.date_created).toISOString() : null,
    PrimaryImageHash: row.image_hash,
  }));
}
