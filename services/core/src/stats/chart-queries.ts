import type { Database } from '../db/database.js';
import { ALL_TIME_DAYS, daysWindowStart } from './time-window.js';
import { dayChartInputs } from './day-chart-sql.js';
import { dayChartCells, isoDate, weekdayOf, type DayChartInput } from './day-chart-cells.js';
import { chartRollup } from './hour-chart-sql.js';

/** Charts of the statistics page: plays and watched seconds per library, by day, weekday or hour, in a zone. */
export type ChartKind = 'day' | 'weekday' | 'hour';

const START = daysWindowStart('$2', '$3');
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The hour chart's bucket key from a local timestamp (a moment already taken to the zone `$2`). */
const HOUR_KEY = (local: string) => `extract(hour FROM ${local})::int::text`;

export interface ChartCell {
  count: number;
  duration: number;
}
export type ChartRow = { Key: string } & Record<string, ChartCell | string>;
export interface ChartAnswer {
  stats: ChartRow[];
  libraries: Array<{ Id: string; Name: string }>;
}

/**
 * The local day ($1 the zone, $2 the server) of the first UTC day holding plays (the day chart's first cells come
 * from that day on too), or today when there are none.
 */
const FIRST_PLAY_DAY = `COALESCE(date_trunc('day', (
    SELECT min(bucket) FROM play_rollups_by_library_day_slots WHERE server_id = $2) AT TIME ZONE $1::text), now() AT TIME ZONE $1::text)::date`;

/**
 * One row per day of the window (every day, zero-filled; all time, ALL_TIME_DAYS or more, from the first day
 * holding plays, not 9,999 days back), per weekday (Sunday first) or per hour (00–23),
 * with `{count, duration}` (plays, seconds) under each library's Name, as the incumbent's charts read it. Names are
 * made unique (a second "Movies" becomes "Movies (id)") so no two libraries share a column.
 */
export async function viewsChart(db: Database, serverId: string, tz: string, days: number, kind: ChartKind): Promise<ChartAnswer> {
  const [cells, libraries, dayKeys] = await Promise.all([
    chartCells(db, serverId, tz, days, kind),
    db.query<{ id: string; name: string }>(`SELECT id, name FROM libraries WHERE server_id = $1 ORDER BY lower(name), id`, [serverId]),
    kind === 'day'
      ? db.query<{ key: string }>(
          `SELECT to_char(d, 'YYYY-MM-DD') AS key
           FROM generate_series(${days >= ALL_TIME_DAYS ? FIRST_PLAY_DAY : `(${daysWindowStart('$1', '$2')} AT TIME ZONE $1::text)::date`},
             (now() AT TIME ZONE $1::text)::date, interval '1 day') AS d`,
          days >= ALL_TIME_DAYS ? [tz, serverId] : [tz, days],
        )
      : Promise.resolve([]),
  ]);
  const keys =
    kind === 'day'
      ? dayKeys.map((row) => row.key)
      : kind === 'weekday'
        ? WEEKDAYS.map((_, index) => String(index))
        : Array.from({ length: 24 }, (_, hour) => String(hour));
  const known = new Map(libraries.map((library) => [library.id, library.name]));
  const used = new Set<string>();
  const byKey = new Map<string, Map<string, ChartCell>>();
  for (const { bucket, libraryId, plays, seconds } of cells) {
    used.add(libraryId);
    const row = byKey.get(bucket) ?? new Map<string, ChartCell>();
    const cell = row.get(libraryId) ?? { count: 0, duration: 0 };
    row.set(libraryId, { count: cell.count + plays, duration: cell.duration + seconds });
    byKey.set(bucket, row);
  }
  const taken = new Set(['Key']);
  const shown = [
    ...libraries.map((library) => ({ Id: library.id, Name: library.name })),
    ...[...used].filter((id) => !known.has(id)).map((id) => ({ Id: id, Name: id === '' ? 'Unknown library' : id })),
  ].map((library) => {
    const Name = taken.has(library.Name) ? `${library.Name} (${library.Id})` : library.Name;
    taken.add(Name);
    return { Id: library.Id, Name };
  });
  const stats = keys.map((bucket) => {
    const row: ChartRow = { Key: labelOf(kind, bucket) };
    for (const library of shown) row[library.Name] = byKey.get(bucket)?.get(library.Id) ?? { count: 0, duration: 0 };
    return row;
  });
  return { stats, libraries: shown };
}

/** Plays and seconds per (bucket key, library): the hour chart summed in SQL, day and weekday charts in here. */
async function chartCells(db: Database, serverId: string, tz: string, days: number, kind: ChartKind) {
  const bind = [serverId, tz, days];
  if (kind === 'hour') {
    const sep = '\u0001';
    const rows = await db.query<{ key: string; plays: number; played_seconds: number }>(
      chartRollup({ start: START, tz: '$2', separator: sep, localKey: HOUR_KEY, timeOfDay: true }),
      bind,
    );
    return rows.map((row) => {
      const [bucket = '', libraryId = ''] = row.key.split(sep);
      return { bucket, libraryId, plays: row.plays, seconds: row.played_seconds };
    });
  }
  const inputs = await db.rows<DayChartInput>(dayChartInputs({ start: START, tz: '$2' }), bind);
  const keys = new Map<number, string>();
  const keyOf = (date: number) => keys.get(date) ?? keys.set(date, kind === 'day' ? isoDate(date) : String(weekdayOf(date))).get(date)!;
  return dayChartCells(inputs).map(({ date, libraryId, plays, seconds }) => ({ bucket: keyOf(date), libraryId, plays, seconds }));
}

function labelOf(kind: ChartKind, bucket: string): string {
  if (kind === 'weekday') return WEEKDAYS[Number(bucket)] ?? bucket;
  if (kind === 'hour') return bucket.padStart(2, '0');
  return bucket;
}
