import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { enqueueWebhookEvents, type AddedItem, type AddedSeries, type RecentlyAddedData, type WebhookServer } from './webhook-events.js';

/** What users call "new media": not seasons, folders or single audio tracks (an album is announced instead). */
const ANNOUNCED_TYPES = new Set(['Movie', 'Episode', 'Series', 'MusicAlbum', 'MusicVideo', 'Video', 'Book', 'AudioBook', 'BoxSet']);

/** In the sync page's transaction: remembers the items it inserted, to announce them when the run ends. */
export async function stageNewItems(
  db: Database,
  serverId: string,
  written: ReadonlyArray<{ id: string; inserted: boolean; type: string }>,
  transaction: Transaction,
): Promise<void> {
  const ids = written.filter((row) => row.inserted && ANNOUNCED_TYPES.has(row.type)).map((row) => row.id);
  if (ids.length === 0) return;
  await db.query(
    `INSERT INTO webhook_item_announcements (server_id, item_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING RETURNING 1`,
    [serverId, ids],
    transaction,
  );
}

interface StagedItem {
  id: string;
  type: string;
  name: string;
  series_id: string | null;
  series_name: string | null;
  parent_index_number: number | null;
  index_number: number | null;
  production_year: number | null;
  date_created: Date | null;
}

/**
 * At the end of a sync run: takes every staged new item of the server and queues one media_recently_added
 * event (episodes grouped by series; a new series with its episodes is one entry). Taking the staged rows and
 * queueing the deliveries happen in one transaction, so the batch is announced exactly once.
 */
export async function announceNewItems(db: Database, server: WebhookServer): Promise<number> {
  return db.sequelize.transaction(async (transaction) => {
    const items = await db.query<StagedItem>(
      `WITH taken AS (DELETE FROM webhook_item_announcements WHERE server_id = $1 RETURNING item_id)
       SELECT i.id, i.type, i.name, i.series_id, i.series_name, i.parent_index_number, i.index_number, i.production_year, i.date_created
       FROM taken JOIN items i ON i.server_id = $1 AND i.id = taken.item_id AND NOT i.archived
       ORDER BY i.series_name NULLS FIRST, i.parent_index_number NULLS FIRST, i.index_number NULLS FIRST, i.name`,
      [server.id],
      transaction,
    );
    if (items.length === 0) return 0;
    const data = groupAdded(items);
    await enqueueWebhookEvents(db, transaction, [{ event: 'media_recently_added', server, occurred_at: new Date().toISOString(), data }]);
    return items.length;
  });
}

export function groupAdded(items: readonly StagedItem[]): RecentlyAddedData {
  const movies: AddedItem[] = [];
  const other: AddedItem[] = [];
  const series = new Map<string, AddedSeries>();
  const seriesOf = (id: string | null, name: string) => {
    const key = id ?? `name:${name}`;
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { id, name, episodes: [] }));
    return entry;
  };
  for (const item of items) {
    const plain: AddedItem = {
      id: item.id,
      name: item.name,
      type: item.type,
      year: item.production_year,
      date_created: item.date_created ? new Date(item.date_created).toISOString() : null,
    };
    if (item.type === 'Movie') movies.push(plain);
    else if (item.type === 'Series') seriesOf(item.id, item.name);
    else if (item.type === 'Episode')
      seriesOf(item.series_id, item.series_name ?? 'Unknown series').episodes.push({
        id: item.id,
        name: item.name,
        season_number: item.parent_index_number,
        episode_number: item.index_number,
      });
    else other.push(plain);
  }
  return { total: items.length, movies, series: [...series.values()], other };
}
