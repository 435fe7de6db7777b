import type { Migration } from './index.js';
import { cardViewerCountsFrom, libraryMonthQuarterRollupsFrom } from '../../history/rollup-sql.js';

/**
 * Two levels for the statistics still slow at 5 M plays without the answer cache:
 *  - play_card_viewer_counts: how many users ever played each movie, series or track. The most-popular cards rank
 *    by distinct viewers, and their walk (stats/card-windows.ts) was bounded by plays only: a series has many
 *    plays per viewer, so the walk read thousands of keys. No window has more viewers than all time, so a list
 *    of keys by this count bounds every key the walk has not met yet. Kept by statement triggers on
 *    play_card_viewers (a pair inserted adds a viewer, a pair deleted removes one), which the history's
 *    triggers (0018) change in the history's own statement.
 *  - play_rollups_by_library_month_quarter: plays and seconds per UTC month × quarter hour of the UTC day ×
 *    library. In +05:30 or +05:45 every UTC hour straddles two local hours, so the hour chart read every quarter
 *    hour of the window; in a month where the zone's offset does not change, quarter q of every day is in the
 *    same local hour, so the month is 96 rows per library (stats/window-sql.ts, chartRollup). Derived from
 *    play_rollups_by_library (0013) by statement triggers, like the levels before it.
 */
const MONTH_QUARTER_KEY = 'server_id, bucket, quarter, library_id';

const addMonthQuarters = (changes: string) => `
    INSERT INTO play_rollups_by_library_month_quarter AS d (${MONTH_QUARTER_KEY}, plays, played_seconds)
    SELECT server_id, bucket, quarter, library_id, plays, played_seconds FROM (${libraryMonthQuarterRollupsFrom(changes)}) AS c
    ON CONFLICT (${MONTH_QUARTER_KEY}) DO UPDATE SET plays = d.plays + EXCLUDED.plays, played_seconds = d.played_seconds + EXCLUDED.played_seconds;`;

export const walkAndHourChartLevels: Migration = {
  name: '0020-walk-and-hour-chart-levels',
  async up({ sql }) {
    // The backfill reads play_card_viewers and the library quarter hours once: longer than a request's timeout.
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
CREATE TABLE play_card_viewer_counts (
  server_id uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  kind      text NOT NULL,
  key       text NOT NULL,
  viewers   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, kind, key)
);
INSERT INTO play_card_viewer_counts (server_id, kind, key, viewers) ${cardViewerCountsFrom('play_card_viewers')};
-- The walk reads keys from the most viewed down.
CREATE INDEX play_card_viewer_counts_ranked ON play_card_viewer_counts (server_id, kind, viewers DESC, key);

CREATE FUNCTION play_card_viewers_to_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- Only subtract: rows deleted with their media server (ON DELETE CASCADE) must not be re-inserted.
    UPDATE play_card_viewer_counts c SET viewers = c.viewers - d.viewers
    FROM (${cardViewerCountsFrom('removed_rows')}) AS d
    WHERE (c.server_id, c.kind, c.key) = (d.server_id, d.kind, d.key);
  ELSE
    INSERT INTO play_card_viewer_counts AS c (server_id, kind, key, viewers)
    SELECT server_id, kind, key, viewers FROM (${cardViewerCountsFrom('added_rows')}) AS d
    ON CONFLICT (server_id, kind, key) DO UPDATE SET viewers = c.viewers + EXCLUDED.viewers;
  END IF;
  RETURN NULL;
END $$;

-- An update of a pair (more plays, a later last play) changes no count: inserts and deletes only.
CREATE TRIGGER play_card_viewers_counts_insert AFTER INSERT ON play_card_viewers
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_card_viewers_to_counts();
CREATE TRIGGER play_card_viewers_counts_delete AFTER DELETE ON play_card_viewers
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION play_card_viewers_to_counts();

CREATE TABLE play_rollups_by_library_month_quarter (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  bucket         timestamptz NOT NULL,
  quarter        smallint NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (${MONTH_QUARTER_KEY}),
  CONSTRAINT play_rollups_by_library_month_quarter_quarter CHECK (quarter BETWEEN 0 AND 95)
);
INSERT INTO play_rollups_by_library_month_quarter (${MONTH_QUARTER_KEY}, plays, played_seconds)
SELECT server_id, bucket, quarter, library_id, plays, played_seconds FROM (${libraryMonthQuarterRollupsFrom('play_rollups_by_library')}) AS q;

CREATE FUNCTION play_rollups_by_library_to_month_quarters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- Only subtract, as above.
    UPDATE play_rollups_by_library_month_quarter d SET plays = d.plays - x.plays, played_seconds = d.played_seconds - x.played_seconds
    FROM (${libraryMonthQuarterRollupsFrom('removed_rows')}) AS x
    WHERE (d.server_id, d.bucket, d.quarter, d.library_id) = (x.server_id, x.bucket, x.quarter, x.library_id);
  ELSIF TG_OP = 'UPDATE' THEN
    ${addMonthQuarters(`(SELECT server_id, bucket, library_id, plays, played_seconds FROM added_rows
      UNION ALL SELECT server_id, bucket, library_id, -plays, -played_seconds FROM previous_rows) AS difference`)}
  ELSE
    ${addMonthQuarters('added_rows')}
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER play_rollups_by_library_month_quarter_insert AFTER INSERT ON play_rollups_by_library
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_month_quarters();
CREATE TRIGGER play_rollups_by_library_month_quarter_update AFTER UPDATE ON play_rollups_by_library
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_month_quarters();
CREATE TRIGGER play_rollups_by_library_month_quarter_delete AFTER DELETE ON play_rollups_by_library
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_month_quarters();
`);
  },
};
