/**
 * A row of dayChartInputs (stats/day-chart-sql.ts): a midnight (no library_id), a UTC day's row (no n) or a
 * prefix (both). Days are numbers of days since 1970-01-01.
 */
export interface DayChartInput {
  n: number | null;
  day: number | null;
  slot: number | null;
  date: number | null;
  library_id: string | null;
  plays: number | null;
  played_seconds: number | null;
  lo_plays: number | null;
  lo_seconds: number | null;
  hi_plays: number | null;
  hi_seconds: number | null;
}

/** Plays and seconds of one library on one local date (days since 1970-01-01). */
export interface DayCell {
  date: number;
  libraryId: string;
  plays: number;
  seconds: number;
}

interface Midnight {
  n: number;
  day: number;
  slot: number;
  date: number;
}

/**
 * The plays and seconds per local day and library (those with plays), summed from dayChartInputs' rows.
 *
 * Local day n runs from midnight n to midnight n + 1. With P(m) the plays of m's UTC day before m, day n holds
 * the whole UTC days from midnight n's up to (not including) midnight n + 1's, minus P(midnight n), plus
 * P(midnight n + 1). So each UTC day's total goes to the local day holding its last moment, the day of the last
 * midnight on or before that UTC day (its number: how many midnights fall on or before it; none for the last
 * midnight's day, whose rest is after the window), and each midnight's prefix leaves the day it starts and joins
 * the day it ends. Sums of integers in doubles: exact below 2^53.
 */
export function dayChartCells(rows: DayChartInput[]): DayCell[] {
  const midnights: Midnight[] = rows
    .filter((row) => row.library_id === null)
    .map((row) => ({ n: row.n!, day: row.day!, slot: row.slot!, date: row.date! }))
    .sort((a, b) => a.n - b.n);
  const days = midnights.length - 1;
  if (days < 1) return [];
  const firstDay = midnights[0]!.day;
  const lastDay = midnights[days]!.day;
  const upTo = new Int32Array(lastDay - firstDay + 1);
  for (const midnight of midnights) upTo[midnight.day - firstDay]! += 1;
  for (let index = 1; index < upTo.length; index += 1) upTo[index]! += upTo[index - 1]!;
  // The same edges as the statement's: the lowest and highest slots above 0.
  const inside = midnights.filter((midnight) => midnight.slot > 0);
  const lo = Math.min(...inside.map((midnight) => midnight.slot));
  const hi = Math.max(...inside.map((midnight) => midnight.slot));
  const insideOf = new Map<number, Midnight[]>();
  for (const midnight of inside) insideOf.set(midnight.day, [...(insideOf.get(midnight.day) ?? []), midnight]);

  const sums = new Map<string, { plays: Float64Array; seconds: Float64Array }>();
  const add = (libraryId: string, n: number, plays: number, seconds: number) => {
    if (n < 1 || n > days) return;
    let library = sums.get(libraryId);
    if (!library) sums.set(libraryId, (library = { plays: new Float64Array(days + 1), seconds: new Float64Array(days + 1) }));
    library.plays[n]! += plays;
    library.seconds[n]! += seconds;
  };
  const prefix = (libraryId: string, n: number, plays: number, seconds: number) => {
    add(libraryId, n, -plays, -seconds);
    add(libraryId, n - 1, plays, seconds);
  };
  for (const row of rows) {
    const libraryId = row.library_id;
    if (libraryId === null) continue;
    if (row.n !== null) {
      prefix(libraryId, row.n, row.plays ?? 0, row.played_seconds ?? 0);
      continue;
    }
    const day = row.day!;
    if (day < lastDay) add(libraryId, upTo[day - firstDay]!, row.plays ?? 0, row.played_seconds ?? 0);
    for (const midnight of insideOf.get(day) ?? []) {
      if (midnight.slot === lo) prefix(libraryId, midnight.n, row.lo_plays ?? 0, row.lo_seconds ?? 0);
      else if (midnight.slot === hi) prefix(libraryId, midnight.n, row.hi_plays ?? 0, row.hi_seconds ?? 0);
      // A slot between the two comes as a `prefix` row.
    }
  }
  const cells: DayCell[] = [];
  for (const [libraryId, library] of sums) {
    for (let n = 1; n <= days; n += 1) {
      if (library.plays[n]! > 0)
        cells.push({ date: midnights[n - 1]!.date, libraryId, plays: library.plays[n]!, seconds: library.seconds[n]! });
    }
  }
  return cells;
}

/**
 * A date (days since 1970-01-01) as YYYY-MM-DD, by the proleptic Gregorian calendar's arithmetic (days to civil
 * date, as in Howard Hinnant's date algorithms): a Date and toISOString per cell took 10 ms of an all-time chart.
 */
export function isoDate(date: number): string {
  const shifted = date + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A date's weekday (days since 1970-01-01, a Thursday), Sunday 0 as extract(dow). */
export function weekdayOf(date: number): number {
  return (((date + 4) % 7) + 7) % 7;
}
