import type { Migration } from './index.js';
import { cardRollupDelta, cardViewersDelta, cardViewersRecount } from '../../history/rollup-sql.js';

/**
 * Rollups shaped for the home page's cards (most viewed and most popular movies, series and tracks; most active
 * users; libraries, clients, playback methods), which ask "plays and seconds (or distinct viewers) per key over
 * the last N days". Reading them from playback_history cost a scan of every play in the window (1.3 M index
 * entries for 365 days at 5 M plays), and from play_rollups_daily a row per day × library × client × method.
 *  - play_card_rollups: per kind of card and key, three spans: UTC days, UTC months and all time. A window reads
 *    whole months, then whole days, then the plays before its first UTC midnight from the history (see
 *    stats/card-windows.ts); each month's rows (or all time's), ordered by plays, bound what a window can
 *    hold, so the item cards stop reading early.
 *  - play_card_viewers: per movie, series or track and user, the plays and the start of the last play. Windows
 *    run to now, so a user viewed a key in a window exactly when their last play of it started in it.
 *
 * Kept by statement triggers on playback_history with transition tables, so every writer and deleter
 * (writeHistory inserting or extending a play, deletePlays, a media server's cascade) changes them in its own
 * statement and by the exact difference.
 */
const KEY = 'server_id, kind, span, key, bucket';

const addTo = (changes: string) => `
    INSERT INTO play_card_rollups AS r (${KEY}, plays, played_seconds)
    SELECT ${KEY}, plays, played_seconds FROM (${cardRollupDelta(changes)}) AS d
    ON CONFLICT (${KEY}) DO UPDATE SET plays = r.plays + EXCLUDED.plays, played_seconds = r.played_seconds + EXCLUDED.played_seconds;`;

const VIEWER_KEY = 'server_id, kind, key, user_id';
const addViewers = (changes: string) => `
    INSERT INTO play_card_viewers AS v (${VIEWER_KEY}, plays, last_started_at)
    SELECT ${VIEWER_KEY}, plays, last_started_at FROM (${cardViewersDelta(changes)}) AS d
    ON CONFLICT (${VIEWER_KEY}) DO UPDATE SET plays = v.plays + EXCLUDED.plays, last_started_at = GREATEST(v.last_started_at, EXCLUDED.last_started_at);`;

export const cardRollups: Migration = {
  name: '0018-card-rollups',
  async up({ sql }) {
    // The backfill reads the whole history once per span (minutes at 5 M plays on a busy machine): longer than
    // the connection's statement timeout, which is meant for requests. For this transaction only.
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
CREATE TABLE play_card_rollups (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  kind           text NOT NULL,
  span           text NOT NULL,
  key            text NOT NULL,
  bucket         timestamptz NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (${KEY}),
  CONSTRAINT play_card_rollups_kind CHECK (kind IN ('Movie', 'Series', 'Audio', 'user', 'library', 'client', 'method')),
  CONSTRAINT play_card_rollups_span CHECK (span IN ('day', 'month', 'all'))
);

INSERT INTO play_card_rollups (${KEY}, plays, played_seconds)
SELECT ${KEY}, plays, played_seconds FROM (${cardRollupDelta('(SELECT *, 1 AS weight FROM playback_history)')}) AS d;

-- Cards that sum every key of a window (users, libraries, clients, methods) read by bucket; the item cards walk
-- each month's (or all time's) keys from the most played down.
CREATE INDEX play_card_rollups_ranked ON play_card_rollups (server_id, kind, span, bucket, plays DESC, key) INCLUDE (played_seconds);

CREATE TABLE play_card_viewers (
  server_id       uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  kind            text NOT NULL,
  key             text NOT NULL,
  user_id         text NOT NULL,
  plays           integer NOT NULL DEFAULT 0,
  last_started_at timestamptz,
  PRIMARY KEY (${VIEWER_KEY}),
  CONSTRAINT play_card_viewers_kind CHECK (kind IN ('Movie', 'Series', 'Audio'))
);
INSERT INTO play_card_viewers (${VIEWER_KEY}, plays, last_started_at)
SELECT ${VIEWER_KEY}, plays, last_started_at FROM (${cardViewersDelta('(SELECT *, 1 AS weight FROM playback_history)')}) AS d;
CREATE INDEX play_card_viewers_recent ON play_card_viewers (server_id, kind, key, last_started_at);

CREATE FUNCTION playback_history_to_cards() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- Only subtract: rows deleted with their media server (ON DELETE CASCADE) must not be re-inserted.
    UPDATE play_card_rollups r SET plays = r.plays - d.plays, played_seconds = r.played_seconds - d.played_seconds
    FROM (${cardRollupDelta('(SELECT *, 1 AS weight FROM removed_rows)')}) AS d
    WHERE (r.server_id, r.kind, r.span, r.key, r.bucket) = (d.server_id, d.kind, d.span, d.key, d.bucket);
    ${cardViewersRecount('(SELECT *, 1 AS weight FROM removed_rows)')}
  ELSIF TG_OP = 'UPDATE' THEN
    ${addTo('(SELECT *, 1 AS weight FROM added_rows UNION ALL SELECT *, -1 FROM previous_rows)')}
    ${addViewers('(SELECT *, 1 AS weight FROM added_rows)')}
    ${cardViewersRecount('(SELECT *, 1 AS weight FROM previous_rows)')}
  ELSE
    ${addTo('(SELECT *, 1 AS weight FROM added_rows)')}
    ${addViewers('(SELECT *, 1 AS weight FROM added_rows)')}
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER playback_history_cards_insert AFTER INSERT ON playback_history
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_cards();
CREATE TRIGGER playback_history_cards_update AFTER UPDATE ON playback_history
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_cards();
CREATE TRIGGER playback_history_cards_delete AFTER DELETE ON playback_history
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION playback_history_to_cards();
`);
  },
};
