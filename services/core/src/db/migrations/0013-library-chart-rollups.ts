import type { Migration } from './index.js';

/**
 * Rollups shaped for the charts (views over time, by weekday, by hour), which ask only "plays and seconds per
 * library per local time bucket" in any zone. play_rollups is keyed by quarter hour × library × client × play
 * method, nearly one row per play at 5 M plays, so a 365-day chart read about a million rows. Two levels keyed
 * by library alone:
 *  - play_rollups_by_library: UTC quarter hours (exact in every zone: every current offset is a whole number of
 *    quarter hours, +05:30 and +05:45 included);
 *  - play_rollups_by_library_hourly: UTC hours, used for every hour in which the zone's offset is a whole number of
 *    hours and does not change (see chartRollup in stats/window-sql.ts); the quarter level covers the rest.
 *
 * Like play_rollups_daily (0006), both are derived from play_rollups by statement triggers with transition
 * tables, so every writer and deleter of play_rollups (writeHistory, deletePlays, restore) keeps them exact in
 * its own transaction.
 */
const QUARTER_COLUMNS = 'server_id, bucket, library_id';
const HOUR = `to_timestamp(floor(extract(epoch FROM bucket) / 3600) * 3600)`;

/** `changes` (server_id, bucket, library_id, plays, played_seconds) added to one level, grouped by `bucket`. */
const addTo = (table: string, bucket: string, changes: string) => `
    INSERT INTO ${table} AS d (${QUARTER_COLUMNS}, plays, played_seconds)
    SELECT server_id, ${bucket}, library_id, sum(plays), sum(played_seconds) FROM ${changes} AS c GROUP BY 1, 2, 3
    ON CONFLICT (${QUARTER_COLUMNS}) DO UPDATE SET plays = d.plays + EXCLUDED.plays, played_seconds = d.played_seconds + EXCLUDED.played_seconds;`;

const subtractFrom = (table: string, bucket: string) => `
    UPDATE ${table} d SET plays = d.plays - x.plays, played_seconds = d.played_seconds - x.played_seconds
    FROM (SELECT server_id, ${bucket} AS bucket, library_id, sum(plays) AS plays, sum(played_seconds) AS played_seconds
          FROM removed_rows GROUP BY 1, 2, 3) AS x
    WHERE (d.server_id, d.bucket, d.library_id) = (x.server_id, x.bucket, x.library_id);`;

const DIFFERENCE = `(SELECT server_id, bucket, library_id, plays, played_seconds FROM added_rows
      UNION ALL SELECT server_id, bucket, library_id, -plays, -played_seconds FROM previous_rows)`;

export const libraryChartRollups: Migration = {
  name: '0013-library-chart-rollups',
  async up({ sql }) {
    const table = (name: string) => `
CREATE TABLE ${name} (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  bucket         timestamptz NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, bucket, library_id)
);`;
    await sql(`
${table('play_rollups_by_library')}
${table('play_rollups_by_library_hourly')}

INSERT INTO play_rollups_by_library (${QUARTER_COLUMNS}, plays, played_seconds)
SELECT server_id, bucket, library_id, sum(plays), sum(played_seconds) FROM play_rollups GROUP BY 1, 2, 3;
INSERT INTO play_rollups_by_library_hourly (${QUARTER_COLUMNS}, plays, played_seconds)
SELECT server_id, ${HOUR}, library_id, sum(plays), sum(played_seconds) FROM play_rollups_by_library GROUP BY 1, 2, 3;

CREATE FUNCTION play_rollups_to_library() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- Only subtract: rows deleted with their media server (ON DELETE CASCADE) must not be re-inserted.
    ${subtractFrom('play_rollups_by_library', 'bucket')}
    ${subtractFrom('play_rollups_by_library_hourly', HOUR)}
  ELSIF TG_OP = 'UPDATE' THEN
    ${addTo('play_rollups_by_library', 'bucket', DIFFERENCE)}
    ${addTo('play_rollups_by_library_hourly', HOUR, DIFFERENCE)}
  ELSE
    ${addTo('play_rollups_by_library', 'bucket', 'added_rows')}
    ${addTo('play_rollups_by_library_hourly', HOUR, 'added_rows')}
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER play_rollups_library_insert AFTER INSERT ON play_rollups
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_to_library();
CREATE TRIGGER play_rollups_library_update AFTER UPDATE ON play_rollups
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_to_library();
CREATE TRIGGER play_rollups_library_delete AFTER DELETE ON play_rollups
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_to_library();
`);
  },
};
