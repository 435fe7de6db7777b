/**
 * Windows and buckets of the statistics, computed by PostgreSQL in an IANA time zone so that days, weekdays
 * and hours follow the zone's own calendar (DST days of 23 or 25 hours, +05:30 and +05:45 offsets).
 *
 * A window of N days (SPEC.md §4) starts at local midnight N days before today and runs to now: 0 means
 * "today", 1 "yesterday and today", and so on. A window of hours runs from now minus that many hours.
 */

/** SQL for the start of a days window; `tz` and `days` are bind-parameter placeholders such as $2 and $3. */
export function daysWindowStart(tz: string, days: string): string {
  return `((date_trunc('day', now() AT TIME ZONE ${tz}::text) - make_interval(days => ${days}::int)) AT TIME ZONE ${tz}::text)`;
}

/** SQL for the start of an hours window. */
export function hoursWindowStart(hours: string): string {
  return `(now() - make_interval(hours => ${hours}::int))`;
}

/** First quarter-hour boundary at or after a window start: whole rollup buckets start here. */
export function quarterCeil(start: string): string {
  return `to_timestamp(ceil(extract(epoch FROM ${start}) / 900) * 900)`;
}

/** First UTC hour boundary at or after a moment (SQL). */
export function hourCeil(moment: string): string {
  return `to_timestamp(ceil(extract(epoch FROM ${moment}) / 3600) * 3600)`;
}

/** First UTC month start at or after a UTC midnight (SQL). */
export function monthCeil(day: string): string {
  return `(date_trunc('month', ${day} AT TIME ZONE 'UTC') + CASE WHEN ${day} = date_trunc('month', ${day} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
          THEN interval '0' ELSE interval '1 month' END) AT TIME ZONE 'UTC'`;
}

/** The "all time" choice of SPEC.md §9 (9999 days); anything longer is all time too. */
export const ALL_TIME_DAYS = 9999;
/** The same in hours: such a window reads the all-time totals. */
export const ALL_TIME_HOURS = ALL_TIME_DAYS * 24;

/** Time parts since a moment, as the dashboard shows "ago" texts (LastSeen, LastActivity, LastPlayed). */
export interface TimeParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function timePartsSince(then: Date | string | null | undefined, now = Date.now()): TimeParts | null {
  if (then === null || then === undefined) return null;
  let seconds = Math.max(0, Math.floor((now - new Date(then).getTime()) / 1000));
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  return { days, hours, minutes, seconds: seconds - minutes * 60 };
}
