/**
 * library_item_counts: per library, the figures the library overview, cards and metadata show, over the
 * library's items that are not archived. Counting them from items read every item of a library on each call
 * (200 k per library at 5 M: 47–110 ms); the table answers in one row per library.
 *
 * Kept exact by statement triggers on items with transition tables (migration 0035), so every writer (sync's
 * upserts and archiving, purges, the Jellystat importer, a media server's cascade, seeding's COPY) changes it
 * in its own statement by the exact difference. A restore swaps items in without firing triggers, so it
 * recounts the table in the swap's transaction (RECOUNT_LIBRARY_ITEMS_SQL).
 */

/** Types that are a library's own entries: not seasons, episodes or the folders music servers nest. */
export const OWN_ENTRY = `type NOT IN ('Season', 'Episode', 'MusicAlbum', 'MusicArtist', 'Folder', 'CollectionFolder', 'BoxSet', 'Playlist')`;

const KEY = 'server_id, library_id';
export const LIBRARY_ITEM_FIGURES = ['entries', 'seasons', 'episodes', 'files', 'size', 'runtime_ticks'] as const;

/**
 * Each library's figures over `rows` (items' columns plus `weight`: 1 to add, -1 to remove). Archived items and
 * items outside any library count nowhere, so archiving or unarchiving an item is a change of -1 or +1.
 */
export const libraryItemDelta = (rows: string) => `
SELECT ${KEY},
  coalesce(sum(weight) FILTER (WHERE ${OWN_ENTRY}), 0)::bigint AS entries,
  coalesce(sum(weight) FILTER (WHERE type = 'Season'), 0)::bigint AS seasons,
  coalesce(sum(weight) FILTER (WHERE type = 'Episode'), 0)::bigint AS episodes,
  coalesce(sum(weight) FILTER (WHERE path IS NOT NULL AND size IS NOT NULL), 0)::bigint AS files,
  coalesce(sum(weight * size), 0)::bigint AS size,
  coalesce(sum(weight * run_time_ticks) FILTER (WHERE type NOT IN ('Series', 'Season', 'MusicAlbum', 'MusicArtist')), 0)::bigint AS runtime_ticks
FROM ${rows} AS changed
WHERE NOT archived AND library_id IS NOT NULL
GROUP BY ${KEY}`;

/** Adds `rows`' differences; libraries whose figures do not change (a sync re-writing unchanged items) are not touched. */
export const addLibraryItems = (rows: string) => `
INSERT INTO library_item_counts AS c (${KEY}, ${LIBRARY_ITEM_FIGURES.join(', ')})
SELECT ${KEY}, ${LIBRARY_ITEM_FIGURES.join(', ')} FROM (${libraryItemDelta(rows)}) AS d
WHERE ${LIBRARY_ITEM_FIGURES.map((f) => `${f} <> 0`).join(' OR ')}
ORDER BY ${KEY}
ON CONFLICT (${KEY}) DO UPDATE SET ${LIBRARY_ITEM_FIGURES.map((f) => `${f} = c.${f} + EXCLUDED.${f}`).join(', ')};`;

/** Empties and recounts the table from items (the migration, a restore). Run it in the transaction that changed items. */
export const RECOUNT_LIBRARY_ITEMS_SQL = `DELETE FROM library_item_counts;
${addLibraryItems('(SELECT *, 1 AS weight FROM items)')}`;
