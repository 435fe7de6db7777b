import type { Migration } from './index.js';

/**
 * A daily level above the quarter-hour rollups, for long windows. An "all time" card summed every quarter
 * hour of the history (about 3 s at 5 million plays); whole UTC days make it a few thousand rows per year.
 * Sums stay exact in every time zone: windowedRollup takes whole UTC days from here, the quarter hours between
 * the window start and the first UTC midnight from play_rollups, and the rest from the history.
 *
 * The daily rows are derived from play_rollups by statement triggers (with transition tables, so a backfill
 * of millions of rows costs one aggregate, not a trigger call per row): every writer and deleter of
 * play_rollups, now or later, keeps the daily level equal to it without knowing it exists.
 */
const DAY = `to_timestamp(floor(extract(epoch FROM bucket) / 86400) * 86400)`;
const COLUMNS = 'server_id, bucket, library_id, client, play_method';

export const dailyRollups: Migration = {
  name: '0006-daily-rollups',
  async up({ sql }) {
    await sql(`
CREATE TABLE play_rollups_daily (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  bucket         timestamptz NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  client         text NOT NULL DEFAULT '',
  play_method    text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (${COLUMNS})
);
CREATE INDEX play_rollups_daily_library ON play_rollups_daily (server_id, library_id, bucket) INCLUDE (plays, played_seconds);

INSERT INTO play_rollups_daily (${COLUMNS}, plays, played_seconds)
SELECT server_id, ${DAY}, library_id, client, play_method, sum(plays), sum(played_seconds)
FROM play_rollups GROUP BY 1, 2, 3, 4, 5;

CREATE FUNCTION play_rollups_to_daily() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- Only subtract: rows deleted with their media server (ON DELETE CASCADE) must not be re-inserted.
    UPDATE play_rollups_daily d SET plays = d.plays - x.plays, played_seconds = d.played_seconds - x.played_seconds
    FROM (SELECT server_id, ${DAY} AS bucket, library_id, client, play_method, sum(plays) AS plays, sum(played_seconds) AS played_seconds
          FROM removed_rows GROUP BY 1, 2, 3, 4, 5) AS x
    WHERE (d.server_id, d.bucket, d.library_id, d.client, d.play_method) = (x.server_id, x.bucket, x.library_id, x.client, x.play_method);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO play_rollups_daily AS d (${COLUMNS}, plays, played_seconds)
    SELECT server_id, ${DAY}, library_id, client, play_method, sum(plays), sum(played_seconds) FROM (
      SELECT ${COLUMNS}, plays, played_seconds FROM added_rows
      UNION ALL
      SELECT ${COLUMNS}, -plays, -played_seconds FROM previous_rows
    ) AS changes GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (${COLUMNS}) DO UPDATE SET plays = d.plays + EXCLUDED.plays, played_seconds = d.played_seconds + EXCLUDED.played_seconds;
  ELSE
    INSERT INTO play_rollups_daily AS d (${COLUMNS}, plays, played_seconds)
    SELECT server_id, ${DAY}, library_id, client, play_method, sum(plays), sum(played_seconds) FROM added_rows GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (${COLUMNS}) DO UPDATE SET plays = d.plays + EXCLUDED.plays, played_seconds = d.played_seconds + EXCLUDED.played_seconds;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER play_rollups_daily_insert AFTER INSERT ON play_rollups
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_to_daily();
CREATE TRIGGER play_rollups_daily_update AFTER UPDATE ON play_rollups
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_to_daily();
CREATE TRIGGER play_rollups_daily_delete AFTER DELETE ON play_rollups
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_to_daily();
`);
  },
};
