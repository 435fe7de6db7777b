import type { Migration } from './index.js';
import { utcDay } from '../../history/rollup-sql.js';

/**
 * The level's rows from library quarter-hour rows in `source`: per UTC day, library and hour h (1–24), the plays
 * of the day's first h hours (h = 24: the whole day); a quarter hour of hour k counts in the prefixes k+1 to 24.
 * (Kept here since 0037 replaced the level by the day slots, history/day-slots-sql.ts, and dropped it.)
 */
function libraryDayPrefixRollupsFrom(source: string): string {
  return `SELECT server_id, ${utcDay('bucket')} AS bucket, h::smallint AS hour, library_id,
      sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds
    FROM ${source} AS p CROSS JOIN LATERAL generate_series((extract(epoch FROM p.bucket)::bigint % 86400 / 3600)::int + 1, 24) AS h
    GROUP BY 1, 2, 3, 4`;
}

/**
 * The day and weekday charts in any zone from a few rows per day: play_rollups_by_library_day_prefix holds, per
 * UTC day, library and hour h (1–24), the plays and seconds of the day's first h hours (h = 24 is the whole
 * day). A local day [s, e) is the whole UTC days from s's to e's, minus the prefix of s's day up to s, plus the
 * prefix of e's day up to e (each prefix an hour row plus up to three quarter hours in +05:30 or +05:45): about
 * three rows per library and day instead of 24 hour rows (stats/day-chart-sql.ts). 365 days and all time in
 * +05:30 read every quarter hour or every hour before.
 *
 * Derived from play_rollups_by_library (0013) by statement triggers, like the other chart levels: a quarter hour
 * of hour k changes the prefixes k+1 to 24 of its day (twelve rows for a play on average).
 *
 * And the cards' rollups (0018) made smaller (the card tables cost about 460 bytes per play at 5 M plays):
 * play_card_rollups_ranked leaves out the day rows of movies, series and tracks, most of the table: nothing reads
 * those by rank or by bucket (the walk ranks months and all time; a window counts its keys' days by the primary
 * key; the cards that sum every key are users, libraries, clients and methods).
 * (play_card_viewers keeps both its indexes: counting a long window's viewers as "viewers ever minus the pairs
 * whose last play is older" needs the older pairs as an index range, which the primary key cannot give.)
 */
const KEY = 'server_id, bucket, hour, library_id';

const addPrefixes = (changes: string) => `
    INSERT INTO play_rollups_by_library_day_prefix AS d (${KEY}, plays, played_seconds)
    SELECT ${KEY}, plays, played_seconds FROM (${libraryDayPrefixRollupsFrom(changes)}) AS c
    ON CONFLICT (${KEY}) DO UPDATE SET plays = d.plays + EXCLUDED.plays, played_seconds = d.played_seconds + EXCLUDED.played_seconds;`;

export const dayChartPrefixesAndCardIndexes: Migration = {
  name: '0021-day-chart-prefixes-and-card-indexes',
  async up({ sql }) {
    // The backfill reads every library quarter hour: longer than a request's timeout on a large history.
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`
CREATE TABLE play_rollups_by_library_day_prefix (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  bucket         timestamptz NOT NULL,
  hour           smallint NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  -- Hour first: a chart reads the whole days (hour 24) of its window as one range, and each edge's prefix by key.
  PRIMARY KEY (server_id, hour, bucket, library_id),
  CONSTRAINT play_rollups_by_library_day_prefix_hour CHECK (hour BETWEEN 1 AND 24)
);
INSERT INTO play_rollups_by_library_day_prefix (${KEY}, plays, played_seconds)
SELECT ${KEY}, plays, played_seconds FROM (${libraryDayPrefixRollupsFrom('play_rollups_by_library')}) AS p;

CREATE FUNCTION play_rollups_by_library_to_day_prefixes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- Only subtract: rows deleted with their media server (ON DELETE CASCADE) must not be re-inserted.
    UPDATE play_rollups_by_library_day_prefix d SET plays = d.plays - x.plays, played_seconds = d.played_seconds - x.played_seconds
    FROM (${libraryDayPrefixRollupsFrom('removed_rows')}) AS x
    WHERE (d.server_id, d.hour, d.bucket, d.library_id) = (x.server_id, x.hour, x.bucket, x.library_id);
  ELSIF TG_OP = 'UPDATE' THEN
    ${addPrefixes(`(SELECT server_id, bucket, library_id, plays, played_seconds FROM added_rows
      UNION ALL SELECT server_id, bucket, library_id, -plays, -played_seconds FROM previous_rows)`)}
  ELSE
    ${addPrefixes('added_rows')}
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER play_rollups_by_library_day_prefix_insert AFTER INSERT ON play_rollups_by_library
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_day_prefixes();
CREATE TRIGGER play_rollups_by_library_day_prefix_update AFTER UPDATE ON play_rollups_by_library
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_day_prefixes();
CREATE TRIGGER play_rollups_by_library_day_prefix_delete AFTER DELETE ON play_rollups_by_library
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_day_prefixes();

DROP INDEX play_card_rollups_ranked;
CREATE INDEX play_card_rollups_ranked ON play_card_rollups (server_id, kind, span, bucket, plays DESC, key) INCLUDE (played_seconds)
  WHERE span <> 'day' OR kind NOT IN ('Movie', 'Series', 'Audio');

`);
  },
};
