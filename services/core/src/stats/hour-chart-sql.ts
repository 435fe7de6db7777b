import { DAY_SLOTS } from '../history/day-slots-sql.js';
import { hourCeil, quarterCeil } from './time-window.js';

/**
 * Plays and seconds per (local time bucket, library) over a window, for the charts, exact in any zone. The one
 * reader of the hour chart and of the year in review's chart figures (which has an end).
 *
 * Whole UTC hours come from play_rollups_by_library_hourly where the zone's offset does not change within the
 * hour and the hour's first and last quarter fall in the same bucket (so all of it does: every hour of a
 * whole-hour zone for the hour chart; for a key with the date, every hour but the one holding local midnight in
 * +05:30 and +05:45), the quarter hours of play_rollups_by_library for the other hours and before the first whole
 * hour, and playback_history before the first whole quarter hour (and, with an end, after the last one).
 *
 * With `timeOfDay` (the key depends on the local time of day only: the hour chart), a UTC month in which the
 * zone's offset does not change is read from play_rollups_by_library_month_quarter (migration 0020): quarter
 * hour q of every day of the month falls in the same local hour, so the month is its 96 rows per library, in
 * +05:30 and +05:45 too, where every UTC hour straddles two local hours. The window's whole months (through the
 * current one, whose rest holds no plays, or the last one that ends by the end) are read so; a month's offset is
 * compared at every UTC midnight from its first day to the next month's (no zone changes its offset and back
 * within a day), each converted once (`midnights`: a day between two midnights of one offset keeps it, so its
 * hours' local times are sums, not conversions). A whole month with an offset change (DST) is read so too, keyed
 * with the offset of a reference day (the month's most common offset), and the hours of its days with another
 * offset are moved from that key to their own (their hour rows, or quarter rows where an hour is split between
 * two buckets): a DST month costs its 96 rows and the hours of the change's shorter side (New York all time at
 * 5 M plays: about 17,400 hour rows became 2,700). The partial first month reads hours as above. A 365-day hour
 * chart reads about 12 × 96 month rows and a few hundred hour rows per library; a year in review (by local day and
 * hour) about 8,800 hour rows per library.
 *
 * `localKey` maps a local timestamp (without zone) to the bucket's key; `tz` is the zone's placeholder; `start`
 * and `end` (excluded; without it the window runs to now) are SQL moments. `$1` is the server id.
 * Rows: key = bucket key || `separator` || library id.
 */
export function chartRollup(options: {
  start: string;
  end?: string;
  tz: string;
  separator: string;
  localKey: (local: string) => string;
  timeOfDay?: boolean;
}): string {
  const { start, end, tz, separator, localKey, timeOfDay = false } = options;
  const rowKey = (column: string, library: string) => `${localKey(`(${column} AT TIME ZONE ${tz}::text)`)} || '${separator}' || ${library}`;
  const bound = (name: string) => `(SELECT ${name} FROM bounds)`;
  // An end cuts the last hours: an hour is whole only if it ends by then, the quarters of a cut hour stop at the
  // end's quarter, and the plays after that quarter's start come from the history (a window runs to now otherwise).
  const finish = end ? `, ${end} AS finish, ${quarterFloor(end)} AS end_quarters` : '';
  const lastMoment = end ? `(${bound('finish')} - interval '1 microsecond')` : 'now()';
  const wholeByEnd = end ? ` AND h + interval '1 hour' <= bounds.finish` : '';
  const monthByEnd = end ? ` AND (m + interval '1 month') AT TIME ZONE 'UTC' <= bounds.finish` : '';
  const quartersByEnd = end ? ` AND q.bucket < ${bound('end_quarters')}` : '';
  const headQuartersEnd = end ? `LEAST(${bound('hours')}, ${bound('end_quarters')})` : bound('hours');
  const headPlaysEnd = end ? `LEAST(${bound('quarters')}, ${bound('finish')})` : bound('quarters');
  // Months from the first one holding plays: an all-time window starts decades back, and each empty month would
  // cost its keys and an index probe.
  const months = (level: string) => `bounds,
        LATERAL (SELECT GREATEST(bounds.hours, (SELECT min(bucket) FROM ${level} WHERE server_id = $1)) AS first) AS f,
        generate_series(date_trunc('month', f.first AT TIME ZONE 'UTC'), date_trunc('month', ${lastMoment} AT TIME ZONE 'UTC'), interval '1 month') AS m`;
  // Offset of the zone at a UTC midnight given as a UTC wall-clock timestamp (the months' and days' form here).
  const offsetAt = (wall: string) => `((${wall} AT TIME ZONE 'UTC') AT TIME ZONE ${tz}::text) - ${wall}`;
  const monthCtes = timeOfDay
    ? `, months AS MATERIALIZED (
      -- Every month whole in the window.
      SELECT m AS month FROM ${months('play_rollups_by_library_month_quarter')}
      WHERE m AT TIME ZONE 'UTC' >= bounds.hours${monthByEnd}
    ), midnights AS MATERIALIZED (
      -- The zone's offset at each UTC midnight of those months and at the next one: the months' only zone
      -- conversions. A day whose two midnights have one offset keeps it all day (no zone changes its offset and
      -- back within a day), so its hours' local times are sums. (Two conversions a day cost less than the sort
      -- that lead() needs.)
      SELECT date_trunc('month', d) AS month, d, ${offsetAt('d')} AS off, ${offsetAt(`(d + interval '1 day')`)} AS next_off
      FROM generate_series((SELECT min(month) FROM months), (SELECT max(month) FROM months) + interval '1 month' - interval '1 day',
        interval '1 day') AS d
    ), refs AS MATERIALIZED (
      -- Each month: whether the zone's offset is the same at all its UTC midnights and the next month's first
      -- (steady), and its reference day: the first of the days of its most common offset that keep it all day (a
      -- steady month's first day). The month's quarter rows are keyed as if every day were that day; the days with
      -- another offset are corrected below. A month without such a day (none in the tz database) is read by hours.
      SELECT DISTINCT ON (c.month) c.month, s.steady, c.ref, c.off FROM (
        SELECT month, off, min(d) AS ref, count(*) AS days FROM midnights WHERE off = next_off GROUP BY month, off
      ) AS c JOIN (SELECT month, bool_and(off = next_off) AS steady FROM midnights GROUP BY month) AS s USING (month)
      ORDER BY c.month, c.days DESC, c.ref
    ), month_offsets AS MATERIALIZED (
      -- The offset each month's quarter rows are read with (the reference day's).
      SELECT (month AT TIME ZONE 'UTC') AS bucket, off FROM refs
    ), fix_days AS MATERIALIZED (
      -- The UTC days (to now) of the months not steady whose offset is not the reference day's all day long.
      SELECT m.d, m.off, m.next_off, refs.ref, refs.off AS ref_off FROM refs JOIN midnights m ON m.month = refs.month
      WHERE NOT refs.steady AND m.d <= date_trunc('day', ${lastMoment} AT TIME ZONE 'UTC')
        AND NOT (m.off = refs.off AND m.next_off = refs.off)
    ), fix_hours AS MATERIALIZED (
      -- Each hour of those days: its key, and the key its quarter rows were given (the same time of the reference
      -- day, which keeps one offset); kept when the zone's offset does not change within it (its quarters' local
      -- times are then sums), whole when all of it falls in one bucket both ways. local and ref_local are its
      -- start's local times on its day and on the reference day. Only the day of a change converts in the zone.
      SELECT d, h, local, ref_local, key, ref_key, kept, kept AND ${localKey("(local + interval '45 minutes')")} = key
          AND ${localKey("(ref_local + interval '45 minutes')")} = ref_key AS whole
      FROM (
        SELECT d, h, local, ref_local, ${localKey('local')} AS key, ${localKey('ref_local')} AS ref_key,
          one_offset OR (h + interval '45 minutes') AT TIME ZONE ${tz}::text = local + interval '45 minutes' AS kept
        FROM (
          SELECT d, hh AT TIME ZONE 'UTC' AS h, off = next_off AS one_offset,
              CASE WHEN off = next_off THEN hh + off ELSE (hh AT TIME ZONE 'UTC') AT TIME ZONE ${tz}::text END AS local,
              ref + (hh - d) + ref_off AS ref_local
          FROM fix_days, generate_series(d, d + interval '23 hours', interval '1 hour') AS hh
          WHERE hh AT TIME ZONE 'UTC' <= ${lastMoment}
        ) AS l
      ) AS k
    ), steady_fix_days AS MATERIALIZED (
      -- The fix days that keep one offset all day (all but the days of a change): all their hours move by the same
      -- two offsets, so their rows are read by one index range a day and summed per UTC time of day before they
      -- are keyed, not read and keyed hour by hour: the hour rows when every hour is whole both ways (in a zone
      -- whose offsets are whole hours), else the quarter rows (St John's, Lord Howe).
      SELECT d, d AT TIME ZONE 'UTC' AS h0, off, ref_off, d NOT IN (SELECT d FROM fix_hours WHERE NOT whole) AS by_hours
      FROM fix_days WHERE off = next_off
    )`
    : '';
  // The months' rows by one index range per month, summed per offset, quarter and library before any key is
  // made: a time-of-day key depends on the local time only, so quarter q read with offset o is keyed once, on any
  // date (96 keys per offset, not one per row; a per-row key or a join on the month and quarter cost more than
  // the rows' reading). In a month that is not steady, each hour of a day with another offset than the reference
  // day's moves from the key its rows were given to its own: the hour row (or, for an hour split between two
  // buckets, its quarter rows) is added under its key and subtracted under the reference's: summed per day's two
  // offsets and UTC time of day first on the days of steady_fix_days, hour by hour on the days of a change (New
  // York all time at 5 M plays: 696 keyed rows instead of 5,476; St John's: 4,298 instead of 23,596 quarter rows
  // keyed by zone conversions). A DST month so reads its 96 rows per library and the hours of the days on the
  // change's shorter side.
  const monthPart = timeOfDay
    ? `SELECT ${localKey(`(timestamp '2000-01-01' + s.off + s.quarter * interval '15 minutes')`)} || '${separator}' || s.library_id AS key,
          s.plays, s.played_seconds
        FROM (
          SELECT mo.off, r.quarter, r.library_id, sum(r.plays) AS plays, sum(r.played_seconds) AS played_seconds
          FROM month_offsets mo CROSS JOIN LATERAL (
            SELECT quarter, library_id, plays, played_seconds FROM play_rollups_by_library_month_quarter
            WHERE server_id = $1 AND bucket = mo.bucket OFFSET 0
          ) AS r
          GROUP BY mo.off, r.quarter, r.library_id
        ) AS s
      UNION ALL
      SELECT ${localKey(`(timestamp '2000-01-01' + k.off + g.at)`)} || '${separator}' || g.library_id, k.sign * g.plays, k.sign * g.played_seconds
        FROM (
          SELECT w.off, w.ref_off, r.bucket - w.h0 AS at, r.library_id, sum(r.plays) AS plays, sum(r.played_seconds) AS played_seconds
          FROM steady_fix_days w CROSS JOIN LATERAL (
            -- 24 hours, not '1 day': a timestamptz's day follows the session's zone. One branch runs per day.
            SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library_hourly
            WHERE w.by_hours AND server_id = $1 AND bucket >= w.h0 AND bucket < w.h0 + interval '24 hours'
            UNION ALL
            SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library
            WHERE NOT w.by_hours AND server_id = $1 AND bucket >= w.h0 AND bucket < w.h0 + interval '24 hours'
            OFFSET 0
          ) AS r
          GROUP BY w.off, w.ref_off, r.bucket - w.h0, r.library_id
        ) AS g
        CROSS JOIN LATERAL (VALUES (g.off, 1), (g.ref_off, -1)) AS k (off, sign)
      UNION ALL
      SELECT k.key || '${separator}' || r.library_id, k.sign * r.plays, k.sign * r.played_seconds
        FROM fix_hours f CROSS JOIN LATERAL (
          -- One index probe per hour (OFFSET 0: the planner, expecting millions of rows, built a huge hash).
          SELECT library_id, plays, played_seconds FROM play_rollups_by_library_hourly WHERE server_id = $1 AND bucket = f.h OFFSET 0
        ) AS r
        CROSS JOIN LATERAL (VALUES (f.key, 1), (f.ref_key, -1)) AS k (key, sign)
        WHERE f.whole AND f.key <> f.ref_key AND f.d NOT IN (SELECT d FROM steady_fix_days)
      UNION ALL
      SELECT k.key || '${separator}' || q.library_id, k.sign * q.plays, k.sign * q.played_seconds
        FROM fix_hours f JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= f.h AND q.bucket < f.h + interval '1 hour'
        CROSS JOIN LATERAL (VALUES
          (${localKey(`(CASE WHEN f.kept THEN f.local + (q.bucket - f.h) ELSE q.bucket AT TIME ZONE ${tz}::text END)`)}, 1),
          (${localKey('(f.ref_local + (q.bucket - f.h))')}, -1)) AS k (key, sign)
        WHERE NOT f.whole AND f.d NOT IN (SELECT d FROM steady_fix_days)
      UNION ALL
      `
    : '';
  const tailPlays = end
    ? `
      UNION ALL
      SELECT ${rowKey('started_at', "COALESCE(library_id, '')")}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= GREATEST(${bound('end_quarters')}, ${bound('quarters')}) AND started_at < ${bound('finish')}`
    : '';
  // By hour of the day without an end, the whole UTC days of the months read by hours (the window's first,
  // partial month: up to 30 days) that keep one offset all day are read from the day slots (0037: per UTC day and
  // library, the plays of its first i quarter hours): one row per library and day instead of 24 hour rows, or, in
  // +05:30 and +05:45 (where every UTC hour straddles two local hours), 96 quarter rows each keyed in the zone
  // (a 30-day Kolkata hour chart read 10,400 quarter rows, 43 of its 54 ms). Only days whose offset is not a whole
  // hour: elsewhere the hour rows are whole and cheaper to read than 96 slots (UTC 30 days: 16 ms by hours, 29 by
  // slots). The days' slots are summed per offset, slot and library first (a sum of running totals is the running
  // total of the sums), then each slot's quarter is its total minus the one before, keyed once per offset (as the
  // month level is). Today counts as whole: nothing after now has been played. The hours of those days are left
  // out of \`hours\`.
  const slotDays = timeOfDay && !end;
  const slotDaysCte = slotDays
    ? `, slot_days AS MATERIALIZED (
      SELECT d AT TIME ZONE 'UTC' AS day, ${offsetAt('d')} AS off
      FROM hour_ranges x, generate_series(date_trunc('day', x.first_hour AT TIME ZONE 'UTC'), date_trunc('day', x.last_hour AT TIME ZONE 'UTC'),
        interval '1 day') AS d
      WHERE d AT TIME ZONE 'UTC' >= x.first_hour
        AND ((d + interval '23 hours') AT TIME ZONE 'UTC' <= x.last_hour OR x.last_hour = now())
        AND ${offsetAt('d')} = ${offsetAt(`(d + interval '1 day')`)} AND date_part('minute', ${offsetAt('d')}) <> 0
    )`
    : '';
  const slotDaysPart = slotDays
    ? `SELECT ${localKey(`(timestamp '2000-01-01' + s.off + (s.slot - 1) * interval '15 minutes')`)} || '${separator}' || s.library_id AS key,
          s.plays, s.played_seconds
        FROM (
          SELECT off, slot, library_id, plays - COALESCE(lag(plays) OVER w, 0) AS plays,
            played_seconds - COALESCE(lag(played_seconds) OVER w, 0) AS played_seconds
          FROM (
            -- The arrays unnested in the select list, side by side (a lateral unnest was memoized per array and
            -- sorted: twice the time), then hashed per offset, slot and library.
            SELECT off, slot, library_id, sum(plays) AS plays, sum(played_seconds) AS played_seconds FROM (
              SELECT sd.off, r.library_id, unnest(r.plays) AS plays, unnest(r.played_seconds) AS played_seconds,
                generate_series(1, ${DAY_SLOTS}) AS slot
              FROM slot_days sd CROSS JOIN LATERAL (
                SELECT library_id, plays, played_seconds FROM play_rollups_by_library_day_slots WHERE server_id = $1 AND bucket = sd.day OFFSET 0
              ) AS r
              OFFSET 0
            ) AS slots
            GROUP BY off, slot, library_id
          ) AS running
          WINDOW w AS (PARTITION BY off, library_id ORDER BY slot)
        ) AS s
      UNION ALL
      `
    : '';
  // The window's bounds are computed once (not once per index probe), and each hour's local time once per hour,
  // not once per library row; only the hours of the months not read whole are listed.
  return `WITH bounds AS MATERIALIZED (
      SELECT start, quarters, ${hourCeil('quarters')} AS hours${finish} FROM (SELECT start, ${quarterCeil('start')} AS quarters FROM (SELECT ${start} AS start) AS s) AS q
    )${monthCtes}, hour_ranges AS MATERIALIZED (
      -- The months (or their part in the window) read by hours, as UTC ranges.
      SELECT GREATEST(f.first, m AT TIME ZONE 'UTC') AS first_hour, LEAST(${lastMoment}, (m + interval '1 month' - interval '1 hour') AT TIME ZONE 'UTC') AS last_hour
      FROM ${months('play_rollups_by_library_hourly')}${
        timeOfDay
          ? `
      WHERE m NOT IN (SELECT month FROM refs)`
          : ''
      }
    )${slotDaysCte}, hours AS MATERIALIZED (
      SELECT h, ${localKey('local')} AS key, ${localKey(`(local + interval '45 minutes')`)} = ${localKey('local')}
          AND (h + interval '45 minutes') AT TIME ZONE ${tz}::text = local + interval '45 minutes'${wholeByEnd} AS whole
      FROM bounds, hour_ranges, generate_series(first_hour, last_hour, interval '1 hour') AS h,
        LATERAL (SELECT h AT TIME ZONE ${tz}::text AS local) AS l${
          slotDays
            ? `
      WHERE NOT EXISTS (SELECT 1 FROM slot_days s WHERE s.day = date_trunc('day', h, 'UTC'))`
            : ''
        }
    )
    SELECT key, sum(plays)::int AS plays, sum(played_seconds)::bigint AS played_seconds FROM (
      ${monthPart}${slotDaysPart}SELECT hours.key || '${separator}' || r.library_id AS key, r.plays, r.played_seconds
        FROM hour_ranges x CROSS JOIN LATERAL (
          -- One index range per month (OFFSET 0: not a hash join over the whole table, which the planner chose
          -- for an all-time chart in a DST zone, reading every hour row to use a few months of them).
          SELECT bucket, library_id, plays, played_seconds FROM play_rollups_by_library_hourly
          WHERE server_id = $1 AND bucket >= x.first_hour AND bucket <= x.last_hour OFFSET 0
        ) AS r
        JOIN hours ON hours.h = r.bucket AND hours.whole
      UNION ALL
      SELECT ${rowKey('q.bucket', 'q.library_id')}, q.plays, q.played_seconds
        FROM hours JOIN play_rollups_by_library q ON q.server_id = $1 AND q.bucket >= hours.h AND q.bucket < hours.h + interval '1 hour'${quartersByEnd}
        WHERE NOT hours.whole
      UNION ALL
      SELECT ${rowKey('bucket', 'library_id')}, plays, played_seconds FROM play_rollups_by_library
        WHERE server_id = $1 AND bucket >= ${bound('quarters')} AND bucket < ${headQuartersEnd}
      UNION ALL
      SELECT ${rowKey('started_at', "COALESCE(library_id, '')")}, 1, played_seconds FROM playback_history
        WHERE server_id = $1 AND started_at >= ${bound('start')} AND started_at < ${headPlaysEnd}${tailPlays}
    ) AS parts GROUP BY key HAVING sum(plays) > 0`;
}

/** Last quarter-hour boundary at or before a moment (SQL). */
function quarterFloor(moment: string): string {
  return `to_timestamp(floor(extract(epoch FROM ${moment}) / 900) * 900)`;
}
