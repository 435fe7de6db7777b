import type { Migration } from './index.js';
import { addLibraryItems, RECOUNT_LIBRARY_ITEMS_SQL } from '../../library/library-item-counts.js';

/**
 * library_item_counts: per library, the counts, files, size and runtime of its items that are not archived, so
 * the library overview, cards and metadata read one row per library instead of counting every item (see
 * library/library-item-counts.ts). Kept by statement triggers on items with transition tables, like the cards'
 * rollups on playback_history, so every writer changes it in its own statement; TRUNCATE of items (seeding's
 * cascade) empties it. No foreign key: a server's cascade reaches items, whose delete trigger takes its rows to
 * zero; the readers join libraries.
 */
export const libraryItemCounts: Migration = {
  name: '0035-library-item-counts',
  async up({ sql }) {
    await sql(`
CREATE TABLE library_item_counts (
  server_id     uuid NOT NULL,
  library_id    text NOT NULL,
  entries       bigint NOT NULL,
  seasons       bigint NOT NULL,
  episodes      bigint NOT NULL,
  files         bigint NOT NULL,
  size          bigint NOT NULL,
  runtime_ticks bigint NOT NULL,
  PRIMARY KEY (server_id, library_id)
);

CREATE FUNCTION items_to_library_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${addLibraryItems('(SELECT *, 1 AS weight FROM added_rows)')}
  ELSIF TG_OP = 'UPDATE' THEN
    ${addLibraryItems('(SELECT *, 1 AS weight FROM added_rows UNION ALL SELECT *, -1 AS weight FROM previous_rows)')}
  ELSE
    ${addLibraryItems('(SELECT *, -1 AS weight FROM removed_rows)')}
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION items_truncate_library_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM library_item_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER items_library_counts_insert AFTER INSERT ON items
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION items_to_library_counts();
CREATE TRIGGER items_library_counts_update AFTER UPDATE ON items
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION items_to_library_counts();
CREATE TRIGGER items_library_counts_delete AFTER DELETE ON items
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION items_to_library_counts();
CREATE TRIGGER items_library_counts_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION items_truncate_library_counts();

${RECOUNT_LIBRARY_ITEMS_SQL}
`);
  },
};
