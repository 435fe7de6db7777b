import type { Migration } from './index.js';
import { ROLLUP_KEY } from '../../history/rollup-sql.js';

/**
 * Storage, second pass (issue 20): what the history and its rollups keep that no reader needs. Measured with
 * EXPLAIN of every SQL catalog read and the history pages of bench:api (docs/performance.md, "Storage, second
 * pass").
 *
 * - history_play_method (server_id, play_method, started_at DESC) and history_client (server_id, client): no plan
 *   uses them. A page filtered by method walks history_started_cover newest first and checks the method (every
 *   method is a large share of the plays); nothing filters the history by client.
 * - history_monitor_started (server_id, started_at) WHERE source = 'monitor': its one reader, the Playback
 *   Reporting import's first monitored play, walks history_started_cover from its start, which now carries
 *   `source` (so the walk past imported plays reads the index alone).
 * - Fill factor 100 for the indexes whose keys only grow at one end of each range (the id, and per server, user,
 *   library, item, series and season the start time): plays are written when they end, so an old leaf page
 *   never receives another entry, and the 10 % that the default fill factor leaves free in it stays empty for
 *   good. Rebuilt here (REINDEX) so existing histories get the packed pages.
 * - play_rollups and play_rollups_daily without the client: no reader asks for a client there (the clients'
 *   cards read play_card_rollups); keyed (server_id, library_id, bucket, play_method), their one reader's filter
 *   (a library's playback methods) leads, so the daily level's extra library index goes too. Rebuilt by summing
 *   the old rows over their clients; the triggers that feed the daily and the charts' levels are recreated on
 *   the new table (the charts' function already sums over the client, the daily one no longer keeps it).
 *
 * One transaction; minutes at millions of plays (no statement timeout). The disk needed while it runs: the
 * rebuilt indexes and rollup tables beside the old ones until the commit.
 */
const DAY = `to_timestamp(floor(extract(epoch FROM bucket) / 86400) * 86400)`;
const APPEND_ONLY_INDEXES = [
  'playback_history_pkey',
  'history_user_cover',
  'history_library_cover',
  'history_item_started',
  'history_series_started',
  'history_season_started',
];

/** A rollup table of the new shape, filled with the old one's rows summed over their clients. */
const withoutClient = (table: string) => `
ALTER TABLE ${table} RENAME TO ${table}_0025;
ALTER INDEX ${table}_pkey RENAME TO ${table}_0025_pkey;
CREATE TABLE ${table} (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  bucket         timestamptz NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  play_method    text NOT NULL,
  plays          integer NOT NULL DEFAULT 0,
  played_seconds bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (${ROLLUP_KEY})
);
INSERT INTO ${table} (server_id, bucket, library_id, play_method, plays, played_seconds)
SELECT server_id, bucket, library_id, play_method, sum(plays)::int, sum(played_seconds)::bigint FROM ${table}_0025
GROUP BY server_id, library_id, bucket, play_method HAVING sum(plays) <> 0 OR sum(played_seconds) <> 0
ORDER BY server_id, library_id, bucket, play_method;
DROP TABLE ${table}_0025;`;

const trigger = (name: string, operation: 'INSERT' | 'UPDATE' | 'DELETE', fn: string) => {
  const tables = {
    INSERT: 'NEW TABLE AS added_rows',
    UPDATE: 'OLD TABLE AS previous_rows NEW TABLE AS added_rows',
    DELETE: 'OLD TABLE AS removed_rows',
  };
  return `CREATE TRIGGER ${name}_${operation.toLowerCase()} AFTER ${operation} ON play_rollups
  REFERENCING ${tables[operation]} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`;
};

export const storageSecondPass: Migration = {
  name: '0026-storage-second-pass',
  async up({ sql }) {
    await sql(`SET LOCAL statement_timeout = 0`);
    await sql(`SET LOCAL maintenance_work_mem = '256MB'`);
    await sql(`
DROP INDEX IF EXISTS history_play_method;
DROP INDEX IF EXISTS history_client;

CREATE INDEX history_started_cover_0026 ON playback_history (server_id, started_at, id)
  INCLUDE (user_id, item_id, item_type, series_id, played_seconds, source) WITH (fillfactor = 100);
DROP INDEX history_started_cover;
ALTER INDEX history_started_cover_0026 RENAME TO history_started_cover;
DROP INDEX IF EXISTS history_monitor_started;

${APPEND_ONLY_INDEXES.map((index) => `ALTER INDEX ${index} SET (fillfactor = 100);\nREINDEX INDEX ${index};`).join('\n')}

${withoutClient('play_rollups')}
${withoutClient('play_rollups_daily')}

CREATE OR REPLACE FUNCTION play_rollups_to_daily() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- Only subtract: rows deleted with their media server (ON DELETE CASCADE) must not be re-inserted.
    UPDATE play_rollups_daily d SET plays = d.plays - x.plays, played_seconds = d.played_seconds - x.played_seconds
    FROM (SELECT server_id, ${DAY} AS bucket, library_id, play_method, sum(plays) AS plays, sum(played_seconds) AS played_seconds
          FROM removed_rows GROUP BY 1, 2, 3, 4) AS x
    WHERE (d.server_id, d.library_id, d.bucket, d.play_method) = (x.server_id, x.library_id, x.bucket, x.play_method);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO play_rollups_daily AS d (${ROLLUP_KEY}, plays, played_seconds)
    SELECT server_id, library_id, ${DAY}, play_method, sum(plays), sum(played_seconds) FROM (
      SELECT ${ROLLUP_KEY}, plays, played_seconds FROM added_rows
      UNION ALL
      SELECT ${ROLLUP_KEY}, -plays, -played_seconds FROM previous_rows
    ) AS changes GROUP BY 1, 2, 3, 4
    ON CONFLICT (${ROLLUP_KEY}) DO UPDATE SET plays = d.plays + EXCLUDED.plays, played_seconds = d.played_seconds + EXCLUDED.played_seconds;
  ELSE
    INSERT INTO play_rollups_daily AS d (${ROLLUP_KEY}, plays, played_seconds)
    SELECT server_id, library_id, ${DAY}, play_method, sum(plays), sum(played_seconds) FROM added_rows GROUP BY 1, 2, 3, 4
    ON CONFLICT (${ROLLUP_KEY}) DO UPDATE SET plays = d.plays + EXCLUDED.plays, played_seconds = d.played_seconds + EXCLUDED.played_seconds;
  END IF;
  RETURN NULL;
END $$;

${(['INSERT', 'UPDATE', 'DELETE'] as const).map((operation) => trigger('play_rollups_daily', operation, 'play_rollups_to_daily')).join('\n')}
${(['INSERT', 'UPDATE', 'DELETE'] as const).map((operation) => trigger('play_rollups_library', operation, 'play_rollups_to_library')).join('\n')}
`);
  },
};
