import { DAY_SLOTS } from '../history/day-slots-sql.js';

/**
 * The CTEs both day-chart statements start from (`dates`, `midnights`, `moments`): the window's local dates, every
 * local midnight from the first day's to the one after today's, numbered from 1 (midnight n starts day n), and for
 * each its moment x, UTC day, slot (whole quarter hours of that day before it) and quarter's start. Ends in `)`.
 */
function midnightCtes(start: string, tz: string): string {
  return `dates AS MATERIALIZED (
      -- The window's local dates: from its first local midnight, or the one before the first play (all time reads
      -- no empty years), to today.
      SELECT first, last, first::date AS first_date FROM (
        SELECT GREATEST((${start}) AT TIME ZONE ${tz}::text, date_trunc('day', (
            SELECT min(bucket) FROM play_rollups_by_library_day_slots WHERE server_id = $1) AT TIME ZONE ${tz}::text)) AS first,
          date_trunc('day', now() AT TIME ZONE ${tz}::text) AS last
      ) AS b
    ), midnights AS MATERIALIZED (
      -- Every local midnight d from the first day's to the one after today's, numbered: midnight n starts day n
      -- and ends day n - 1.
      SELECT g.n::int AS n, g.d, g.d AT TIME ZONE ${tz}::text AS x
      FROM dates, generate_series(dates.first, dates.last + interval '1 day', interval '1 day') WITH ORDINALITY AS g (d, n)
    ), moments AS MATERIALIZED (
      -- Each midnight's UTC day, the whole quarter hours of that day before it (its slot), and its quarter's start.
      SELECT n, d, x, date_trunc('day', x, 'UTC') AS day,
        date_part('hour', x AT TIME ZONE 'UTC')::int * 4 + date_part('minute', x AT TIME ZONE 'UTC')::int / 15 AS slot,
        date_trunc('hour', x, 'UTC') + (date_part('minute', x AT TIME ZONE 'UTC')::int / 15) * interval '15 minutes' AS quarter
      FROM midnights
    )`;
}

/** The day-slot rows of the window's UTC days, from the first midnight's to the last one's (after midnightCtes). */
const WINDOW_DAY_ROWS = `server_id = $1 AND bucket >= (SELECT min(day) FROM moments) AND bucket <= (SELECT max(day) FROM moments)`;

/**
 * The plays from midnight m's quarter hour to m (a LATERAL over moments m; none unless the zone's midnight is not
 * on a quarter hour). OFFSET 0: not flattened into a hash join over the whole history.
 */
const PLAYS_BEFORE_MIDNIGHT = `SELECT COALESCE(library_id, '') AS library_id, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= m.quarter AND started_at < m.x OFFSET 0`;

/**
 * Plays and seconds per (local day bucket, library) over a days window, summed in SQL (the year in review's
 * busiest day, inside its one statement; the charts sum dayChartInputs' rows in the service instead), exact
 * in any zone (DST days of 23 or 25 hours, +05:30, +05:45) from play_rollups_by_library_day_slots (0037: per UTC
 * day and library, slot i holds the plays of the day's first i quarter hours; history/day-slots-sql.ts).
 *
 * Local day D runs from its local midnight s to the next one, e. With P(x) the plays of x's UTC day before x,
 * D holds the whole UTC days from s's up to (not including) e's, minus P(s), plus P(e). P(x) is slot q of x's
 * UTC day (q the whole quarter hours before x; nothing for q = 0), plus, only in a zone whose midnight is not on
 * a quarter hour, playback_history from x's quarter hour to x. Each UTC day's total (slot 96) falls in exactly one
 * local day: the one holding the UTC day's last moment.
 *
 * So each UTC day's row is read once, as one index range for the window, narrowed to its total and the slots of
 * the window's midnights, and joined to a plan per UTC day of what it gives: (local day, slot, sign) for its
 * total and for each midnight in it (the prefix leaves the day the midnight starts and joins the day it ends).
 * About one row per library and day, six to a page, in any zone: an all-time chart of three years reads a few
 * hundred pages (0021's hour prefixes put each row read on a page of its own, and +05:30 read the quarter hours
 * at every midnight too).
 *
 * The days are numbered (n, from 1) and every row is summed under its day's number; the bucket key (`localKey`,
 * a to_char or extract per call) is computed once per day at the end.
 *
 * `start` is the window's first local midnight (SQL), `tz` the zone's placeholder, `$1` the server id;
 * `localKey` maps a local midnight (timestamp without zone) to the bucket key. The last day runs to the next
 * local midnight. Rows: key = bucket key || `separator` || library id.
 */
export function dayChartRollup(options: { start: string; tz: string; separator: string; localKey: (local: string) => string }): string {
  const { start, tz, separator, localKey } = options;
  const final = `SELECT k.key || '${separator}' || c.library_id AS key, sum(c.plays)::int AS plays, sum(c.played_seconds)::bigint AS played_seconds
      FROM cells c JOIN keys k USING (n) GROUP BY k.key, c.library_id HAVING sum(c.plays) > 0`;
  return `WITH ${midnightCtes(start, tz)}, plan AS MATERIALIZED (
      -- Per UTC day from the first midnight's to the last one's: (local day, slot, sign) for what its row gives.
      -- The total goes to the local day holding the day's last moment (none for the last midnight's day: its rest
      -- is after the window); a midnight's prefix leaves the day it starts and joins the day it ends.
      SELECT u, (date_trunc('day', (u + interval '1 day' - interval '1 microsecond') AT TIME ZONE ${tz}::text)::date - dates.first_date) + 1 AS n,
        ${DAY_SLOTS} AS slot, 1 AS sign
      FROM dates, generate_series((SELECT min(day) FROM moments), (SELECT max(day) FROM moments) - interval '1 day', interval '1 day') AS u
      UNION ALL
      SELECT m.day, m.n + k.shift, m.slot, k.sign FROM moments m CROSS JOIN (VALUES (0, -1), (-1, 1)) AS k (shift, sign) WHERE m.slot > 0
    ), edges AS MATERIALIZED (
      -- The midnights' lowest and highest slots in the window: one per offset, so these two are every slot of a zone
      -- with one or two offsets over the window (DST, or none).
      SELECT COALESCE(min(slot), 0) AS lo, COALESCE(max(slot), 0) AS hi FROM plan WHERE slot < ${DAY_SLOTS}
    ), cells AS (
      SELECT n, library_id, sum(plays) AS plays, sum(played_seconds) AS played_seconds FROM (
        -- No midnight inside a UTC day (UTC, or a window of London's winter): only the days' totals, by
        -- index-only scan of 0038's narrow index (the arrays are not read; the branch below is skipped).
        SELECT p.n, r.library_id, p.sign * r.day_plays AS plays, p.sign * r.day_seconds AS played_seconds
          FROM (
            SELECT bucket, library_id, day_plays, day_seconds FROM play_rollups_by_library_day_slots
            WHERE ${WINDOW_DAY_ROWS}
              AND (SELECT hi FROM edges) = 0
            OFFSET 0
          ) AS r JOIN plan p ON p.u = r.bucket
        UNION ALL
        -- The window's rows as one index range (not a probe per day), each read once and narrowed to the day's
        -- total and the two edge slots before the join to the plan (OFFSET 0: not after it, which hashed the
        -- 1.2 KB rows).
        SELECT p.n, r.library_id,
            p.sign * CASE p.slot WHEN ${DAY_SLOTS} THEN r.day_plays WHEN (SELECT lo FROM edges) THEN r.lo_plays ELSE r.hi_plays END AS plays,
            p.sign * CASE p.slot WHEN ${DAY_SLOTS} THEN r.day_seconds WHEN (SELECT lo FROM edges) THEN r.lo_seconds ELSE r.hi_seconds END AS played_seconds
          FROM (
            SELECT bucket, library_id, day_plays, day_seconds,
              plays[(SELECT lo FROM edges)] AS lo_plays, played_seconds[(SELECT lo FROM edges)] AS lo_seconds,
              plays[(SELECT hi FROM edges)] AS hi_plays, played_seconds[(SELECT hi FROM edges)] AS hi_seconds
            FROM play_rollups_by_library_day_slots
            WHERE ${WINDOW_DAY_ROWS}
              AND (SELECT hi FROM edges) > 0
            OFFSET 0
          ) AS r JOIN plan p ON p.u = r.bucket
          WHERE p.slot IN (${DAY_SLOTS}, (SELECT lo FROM edges), (SELECT hi FROM edges))
        UNION ALL
        -- A midnight slot between the two (an offset that changed more than once in the window): its days' rows
        -- read one UTC day at a time.
        SELECT p.n, r.library_id, p.sign * r.plays[p.slot], p.sign * r.played_seconds[p.slot]
          FROM edges e JOIN plan p ON p.slot > e.lo AND p.slot < e.hi CROSS JOIN LATERAL (
            SELECT library_id, plays, played_seconds FROM play_rollups_by_library_day_slots WHERE server_id = $1 AND bucket = p.u
          ) AS r
        UNION ALL
        -- Only in a zone whose midnight is not on a quarter hour: the history from the midnight's quarter to it.
        SELECT m.n + k.shift, h.library_id, k.sign, k.sign * h.played_seconds
          FROM moments m CROSS JOIN LATERAL (
            ${PLAYS_BEFORE_MIDNIGHT}
          ) AS h CROSS JOIN (VALUES (0, -1), (-1, 1)) AS k (shift, sign)
          WHERE m.x > m.quarter
      ) AS parts GROUP BY n, library_id
    ), keys AS MATERIALIZED (
      -- The window's days (none before the first or after today) and their keys.
      SELECT n, ${localKey('midnights.d')} AS key FROM midnights, dates WHERE midnights.d <= dates.last
    )
    ${final}`;
}

/**
 * What the day and weekday charts are summed from in the service (stats/day-chart-cells.ts), for the same window
 * and zone as dayChartRollup: the same midnights and rows, without the per-UTC-day plan, its join and the sums,
 * which cost more than reading the rows (an all-time chart: 4,384 rows of 1,096 days, the join making 13,148 and
 * summing them to 4,384 again; about 19 of its 36 ms in New York or Kolkata at 5 M plays).
 *
 * Rows of three kinds, told apart by which columns are null (a `kind` column cost 1–2 ms of an all-time chart's
 * transfer):
 * - a midnight (no library_id): n, its UTC day (`day`, days since 1970-01-01), `slot` and the local `date` it starts (days since
 *   1970-01-01, a calendar date in no zone), one per midnight from the window's first to the one after today's.
 * - a day (no n): a UTC day's row per library (`day`, library_id): its total and its slots `lo` and `hi` (the midnights'
 *   lowest and highest slots above 0: one per offset, so every slot of a zone with one or two offsets over the
 *   window). With no midnight inside any UTC day (UTC, London's winter) from the narrow totals index alone.
 * - a prefix (n and library_id): plays of a midnight's UTC day before it that `lo` and `hi` do not hold (n, library_id): a slot between
 *   them (an offset that changed more than once in the window), and, in a zone whose midnight is not on a quarter
 *   hour, the history from the midnight's quarter to it.
 */
export function dayChartInputs(options: { start: string; tz: string }): string {
  const dayNumber = (utcMidnight: string) => `(extract(epoch FROM ${utcMidnight}) / 86400)::int`;
  return `WITH ${midnightCtes(options.start, options.tz)}, edges AS MATERIALIZED (
      SELECT COALESCE(min(slot) FILTER (WHERE slot > 0), 0) AS lo, COALESCE(max(slot), 0) AS hi FROM moments
    )
    SELECT n, ${dayNumber('day')} AS day, slot, (d::date - date '1970-01-01') AS date, NULL AS library_id,
        NULL::int AS plays, NULL::bigint AS played_seconds, NULL::int AS lo_plays, NULL::bigint AS lo_seconds, NULL::int AS hi_plays, NULL::bigint AS hi_seconds
      FROM moments
    UNION ALL
    -- No midnight inside a UTC day: the totals by index-only scan of 0038's narrow index (the arrays not read).
    SELECT NULL::int, ${dayNumber('bucket')}, NULL, NULL, library_id, day_plays, day_seconds, NULL, NULL, NULL, NULL
      FROM play_rollups_by_library_day_slots WHERE ${WINDOW_DAY_ROWS} AND (SELECT hi FROM edges) = 0
    UNION ALL
    SELECT NULL::int, ${dayNumber('bucket')}, NULL, NULL, library_id, day_plays, day_seconds,
        plays[(SELECT lo FROM edges)], played_seconds[(SELECT lo FROM edges)], plays[(SELECT hi FROM edges)], played_seconds[(SELECT hi FROM edges)]
      FROM play_rollups_by_library_day_slots WHERE ${WINDOW_DAY_ROWS} AND (SELECT hi FROM edges) > 0
    UNION ALL
    SELECT m.n, NULL, NULL, NULL, r.library_id, r.plays[m.slot], r.played_seconds[m.slot], NULL, NULL, NULL, NULL
      FROM edges e JOIN moments m ON m.slot > e.lo AND m.slot < e.hi CROSS JOIN LATERAL (
        SELECT library_id, plays, played_seconds FROM play_rollups_by_library_day_slots WHERE server_id = $1 AND bucket = m.day
      ) AS r
    UNION ALL
    SELECT m.n, NULL, NULL, NULL, h.library_id, count(*)::int, sum(h.played_seconds)::bigint, NULL, NULL, NULL, NULL
      FROM moments m CROSS JOIN LATERAL (
        ${PLAYS_BEFORE_MIDNIGHT}
      ) AS h
      WHERE m.x > m.quarter
      GROUP BY m.n, h.library_id`;
}
