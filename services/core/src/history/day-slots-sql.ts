import { utcDay } from './rollup-sql.js';

/**
 * The day and weekday charts' level (migration 0037): play_rollups_by_library_day_slots holds one row per UTC day
 * and library with two arrays of 96 slots, slot i (1–96) the plays (and seconds) of the day's first i quarter
 * hours: slot 96 is the whole day. The plays of a UTC day before any quarter-hour boundary x are then slot q of
 * its row (q = the whole quarter hours before x), so a local day in any zone (DST, +05:30, +05:45) is read from
 * the rows of the two UTC days it touches (stats/day-chart-sql.ts): about one row of about 1.3 KB per library and
 * day, six to a page, where the hour prefixes of 0021 put every prefix row on a page of its own.
 *
 * Cumulative slots cost a reader one subscript per edge instead of a sum over a slice; a play rewrites the row
 * either way (a new row version). Kept under 2 KB (no TOAST: PostgreSQL compresses or moves a row out only above
 * about 2 KB), so a read is the row itself.
 */
export const DAY_SLOTS = 96;

/**
 * Rows (server_id, bucket, library_id, plays int[], played_seconds bigint[]) for play_rollups_by_library_day_slots
 * from library quarter-hour rows (server_id, bucket, library_id, plays, played_seconds) in `source`, which may
 * hold negative rows (an update's old rows): each UTC day and library's quarter hours, summed slot by slot.
 */
export function libraryDaySlotsFrom(source: string): string {
  // Per day and library, the running totals at the slots that have plays (steps of the cumulative slots), then
  // each of the 96 slots takes the last step at or before it (width_bucket: how many step slots are <= it). A
  // dense 96 rows per quarter hour and a window over them cost a trigger twice as much. (ORDER BY ordinality: the
  // planner knows a function's ordinality is in order, and sorts nothing.)
  const slotsOf = (steps: string) =>
    `ARRAY(SELECT COALESCE(k.${steps}[width_bucket(s.slot, k.slots)], 0)
      FROM generate_series(1, ${DAY_SLOTS}) WITH ORDINALITY AS s (slot, ord) ORDER BY s.ord)`;
  return `(WITH quarters AS (
      SELECT server_id, ${utcDay('bucket')} AS bucket, library_id, (extract(epoch FROM bucket)::bigint % 86400 / 900)::int + 1 AS slot,
        sum(plays) AS plays, sum(played_seconds) AS played_seconds
      FROM ${source} AS q GROUP BY 1, 2, 3, 4
    ), steps AS (
      SELECT server_id, bucket, library_id, array_agg(slot ORDER BY slot) AS slots,
        array_agg(plays ORDER BY slot) AS plays, array_agg(played_seconds ORDER BY slot) AS played_seconds
      FROM (
        SELECT server_id, bucket, library_id, slot, sum(plays) OVER w AS plays, sum(played_seconds) OVER w AS played_seconds
        FROM quarters WINDOW w AS (PARTITION BY server_id, bucket, library_id ORDER BY slot)
      ) AS running GROUP BY 1, 2, 3
    )
    SELECT server_id, bucket, library_id, ${slotsOf('plays')}::int[] AS plays, ${slotsOf('played_seconds')}::bigint[] AS played_seconds
    FROM steps AS k)`;
}

/** Two slot arrays added (or subtracted) element by element. */
export function combineSlots(a: string, b: string, op: '+' | '-'): string {
  return `ARRAY(SELECT x ${op} y FROM unnest(${a}, ${b}) WITH ORDINALITY AS t (x, y, ord) ORDER BY ord)`;
}

/** The level's rows of `source` (…, plays, played_seconds arrays) one slot a row: (server_id, bucket, slot, library_id, plays, played_seconds). */
export function daySlotsUnnested(source: string): string {
  return `SELECT a.server_id, a.bucket, s.slot::int AS slot, a.library_id, s.plays, s.played_seconds
    FROM ${source} AS a CROSS JOIN LATERAL unnest(a.plays, a.played_seconds) WITH ORDINALITY AS s (plays, played_seconds, slot)`;
}

const KEY = 'server_id, bucket, library_id';

const addSlots = (changes: string) => `
    INSERT INTO play_rollups_by_library_day_slots AS d (${KEY}, plays, played_seconds)
    SELECT ${KEY}, plays, played_seconds FROM ${libraryDaySlotsFrom(changes)} AS c
    ON CONFLICT (${KEY}) DO UPDATE SET plays = ${combineSlots('d.plays', 'EXCLUDED.plays', '+')},
      played_seconds = ${combineSlots('d.played_seconds', 'EXCLUDED.played_seconds', '+')};`;

/**
 * The table, its statement triggers on play_rollups_by_library (insert adds, update adds the new rows minus the
 * old, delete only subtracts: rows deleted with their media server must not be re-inserted) and its backfill.
 */
export const DAY_SLOTS_SCHEMA_SQL = `
CREATE TABLE play_rollups_by_library_day_slots (
  server_id      uuid NOT NULL REFERENCES media_servers (id) ON DELETE CASCADE,
  bucket         timestamptz NOT NULL,
  library_id     text NOT NULL DEFAULT '',
  plays          integer[] NOT NULL,
  played_seconds bigint[] NOT NULL,
  PRIMARY KEY (${KEY}),
  CONSTRAINT play_rollups_by_library_day_slots_slots CHECK (cardinality(plays) = ${DAY_SLOTS} AND cardinality(played_seconds) = ${DAY_SLOTS})
);
INSERT INTO play_rollups_by_library_day_slots (${KEY}, plays, played_seconds)
SELECT ${KEY}, plays, played_seconds FROM ${libraryDaySlotsFrom('play_rollups_by_library')} AS p ORDER BY ${KEY};

CREATE FUNCTION play_rollups_by_library_to_day_slots() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE play_rollups_by_library_day_slots d SET plays = ${combineSlots('d.plays', 'x.plays', '-')},
      played_seconds = ${combineSlots('d.played_seconds', 'x.played_seconds', '-')}
    FROM ${libraryDaySlotsFrom('removed_rows')} AS x
    WHERE (d.server_id, d.bucket, d.library_id) = (x.server_id, x.bucket, x.library_id);
  ELSIF TG_OP = 'UPDATE' THEN
    ${addSlots(`(SELECT server_id, bucket, library_id, plays, played_seconds FROM added_rows
      UNION ALL SELECT server_id, bucket, library_id, -plays, -played_seconds FROM previous_rows)`)}
  ELSE
    ${addSlots('added_rows')}
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER play_rollups_by_library_day_slots_insert AFTER INSERT ON play_rollups_by_library
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_day_slots();
CREATE TRIGGER play_rollups_by_library_day_slots_update AFTER UPDATE ON play_rollups_by_library
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_day_slots();
CREATE TRIGGER play_rollups_by_library_day_slots_delete AFTER DELETE ON play_rollups_by_library
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION play_rollups_by_library_to_day_slots();
`;

/**
 * Migration 0038: each row's whole-day total (slot 96) as plain columns, generated from the arrays, and a covering
 * index (server_id, bucket) INCLUDE (library_id, day_plays, day_seconds). A window whose local midnights are all
 * UTC midnights (UTC) needs only the totals: an index-only scan of about 40 pages of narrow entries instead of the
 * 1.3 KB rows, six to a heap page (0037 made UTC's all-time charts 0.3–1 ms slower than 0021's narrow rows did).
 * The total changes with every play, so a play's update of the row is no longer HOT (it adds an entry to both
 * indexes); the table stays small (one row per UTC day and library) and autovacuum clears the old entries and sets
 * the pages all-visible again for the index-only scans.
 */
export const DAY_TOTALS_SQL = `
ALTER TABLE play_rollups_by_library_day_slots
  ADD COLUMN day_plays integer GENERATED ALWAYS AS (plays[${DAY_SLOTS}]) STORED,
  ADD COLUMN day_seconds bigint GENERATED ALWAYS AS (played_seconds[${DAY_SLOTS}]) STORED;
CREATE INDEX play_rollups_by_library_day_slots_totals ON play_rollups_by_library_day_slots (server_id, bucket)
  INCLUDE (library_id, day_plays, day_seconds);
`;
