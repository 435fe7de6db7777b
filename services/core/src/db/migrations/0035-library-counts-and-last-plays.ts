import type { Migration } from './index.js';
import { addUserLastPlays, RECOUNT_USER_LAST_PLAYS_SQL, recountUserLastPlays } from '../../history/user-last-plays.js';
import { addLibraryItems, RECOUNT_LIBRARY_ITEMS_SQL } from '../../library/library-item-counts.js';

/**
 * Two small tables kept by statement triggers, so that two pages read a few rows instead of their sources:
 *
 * library_item_counts: per library, the counts, files, size and runtime of its items that are not archived, so
 * the library overview, cards and metadata read one row per library instead of counting every item (see
 * library/library-item-counts.ts). Kept by statement triggers on items with transition tables, like the cards'
 * rollups on playback_history, so every writer changes it in its own statement; TRUNCATE of items (seeding's
 * cascade) empties it. No foreign key: a server's cascade reaches items, whose delete trigger takes its rows to
 * zero; the readers join libraries.
 *
 * user_last_plays: per user, the last play the users table shows (see history/user-last-plays.ts), kept by
 * triggers on playback_history beside the cards' (0018). Filled from play_totals' users, one lookup each.
 */
export const libraryCountsAndLastPlays: Migration = {
  name: '0035-library-counts-and-last-plays',
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

CREATE TABLE user_last_plays (
  server_id   uuid NOT NULL,
  user_id     text NOT NULL,
  history_id  bigint NOT NULL,
  started_at  timestamptz NOT NULL,
  item_id     text NOT NULL,
  item_name   text,
  series_name text,
  client      text,
  PRIMARY KEY (server_id, user_id)
);

CREATE FUNCTION playback_history_to_last_plays() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${addUserLastPlays('added_rows')}
  ELSIF TG_OP = 'UPDATE' THEN
    ${recountUserLastPlays('(SELECT server_id, user_id FROM previous_rows UNION ALL SELECT server_id, user_id FROM added_rows)')}
  ELSE
    ${recountUserLastPlays('removed_rows')}
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER playback_history_last_plays_insert AFTER INSERT ON playback_history
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_last_plays();
CREATE TRIGGER playback_history_last_plays_update AFTER UPDATE ON playback_history
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_last_plays();
CREATE TRIGGER playback_history_last_plays_delete AFTER DELETE ON playback_history
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_last_plays();

CREATE FUNCTION playback_history_truncate_last_plays() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_last_plays;
  RETURN NULL;
END $$;

CREATE TRIGGER playback_history_last_plays_truncate AFTER TRUNCATE ON playback_history
  FOR EACH STATEMENT EXECUTE FUNCTION playback_history_truncate_last_plays();

${RECOUNT_USER_LAST_PLAYS_SQL}
`);
  },
};
