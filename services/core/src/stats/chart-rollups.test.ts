import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { recordPlays, type PlayToRecord } from '../history/record-plays.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { viewsChart, WEEKDAYS, type ChartKind } from './chart-queries.js';
import { chartRollup } from './hour-chart-sql.js';
import { daysWindowStart } from './time-window.js';

/**
 * The charts read whole UTC hours where the zone allows it and quarter hours elsewhere (hour-chart-sql.ts,
 * chartRollup). Random plays around offset changes are charted in zones of every kind and compared with the
 * buckets JavaScript's own time-zone data gives each play: whole-hour zones with DST (New York, London), a
 * half-hour DST change (Lord Howe: +10:30 → +11), and +05:30, +05:45, -03:30, +12:45 offsets.
 */
const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
];

describe('charts from the library rollups', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  const plays: PlayToRecord[] = [];
  // From 2026-06-20 to now: whole months without an offset change (July, August; the hour chart reads those from
  // the month level), and the Lord Howe (4 Oct), Chatham (27 Sep), London (25 Oct) and New York (1 Nov) changes.
  const from = Date.parse('2026-06-20T00:00:00Z');
  const days = Math.ceil((Date.now() - from) / 86_400_000) + 2;

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    await db.query(
      `INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'a', 'A', 'movies'), ($1, 'b', 'B', 'tvshows')`,
      [serverId],
    );
    const random = seededRandom(20);
    const span = Date.now() - 60_000 - from;
    for (let index = 0; index < 5000; index += 1) {
      // Minutes at random, so plays fall into every quarter of an hour.
      const startedAt = new Date(from + Math.floor((random() * span) / 60_000) * 60_000);
      plays.push({
        serverId,
        playKey: `p${index}`,
        source: 'monitor',
        userId: 'u1',
        userName: 'Alice',
        itemId: `i${index % 50}`,
        itemName: 'Item',
        libraryId: random() < 0.6 ? 'a' : 'b',
        client: random() < 0.5 ? 'Web' : 'TV',
        playMethod: random() < 0.5 ? 'DirectPlay' : 'Transcode',
        startedAt,
        playedSeconds: 1 + Math.floor(random() * 3000),
      });
    }
    expect(await recordPlays(db, plays)).toBe(plays.length);
    expect(await findRollupDifferences(db)).toEqual([]);
  });
  afterAll(async () => {
    await close();
  });

  /** Plays and seconds per cell of `chosen` plays, the cell named from each play's local time as Intl computes it. */
  function tally(tz: string, chosen: PlayToRecord[], cellOf: (local: Record<string, string>, play: PlayToRecord) => string) {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
    });
    const cells: Record<string, [number, number]> = {};
    for (const play of chosen) {
      const local = Object.fromEntries(parts.formatToParts(play.startedAt).map((part) => [part.type, part.value]));
      const cell = (cells[cellOf(local, play)] ??= [0, 0]);
      cell[0] += 1;
      cell[1] += play.playedSeconds;
    }
    return cells;
  }

  /** What a chart cell should hold. */
  function expected(tz: string, kind: ChartKind): Record<string, [number, number]> {
    return tally(tz, plays, (p, play) => {
      const bucket = kind === 'day' ? `${p.year}-${p.month}-${p.day}` : kind === 'hour' ? p.hour! : p.weekday!;
      return `${bucket} ${play.libraryId === 'a' ? 'A' : 'B'}`;
    });
  }

  async function charted(tz: string, kind: ChartKind, window = days): Promise<Record<string, [number, number]>> {
    const chart = await viewsChart(db, serverId, tz, window, kind);
    const cells: Record<string, [number, number]> = {};
    for (const row of chart.stats) {
      for (const library of ['A', 'B']) {
        const cell = row[library] as { count: number; duration: number };
        if (cell.count > 0) cells[`${row.Key} ${library}`] = [cell.count, cell.duration];
      }
    }
    return cells;
  }

  // All time starts decades before the first play: the month level is read from the first month holding plays.
  it.each(['UTC', 'Asia/Kolkata', 'America/New_York'])('charts all time (9999 days) in %s exactly', async (tz) => {
    for (const kind of ['day', 'weekday', 'hour'] as const) {
      expect(await charted(tz, kind, 9999), `${tz} ${kind}`).toEqual(expected(tz, kind));
    }
    // The all-time day chart lists every day from the first play's (not 9,999 days of zeros) to today.
    const localDay = (moment: Date) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(moment);
    const first = localDay(new Date(Math.min(...plays.map((play) => play.startedAt.getTime()))));
    const keys = (await viewsChart(db, serverId, tz, 9999, 'day')).stats.map((row) => row.Key);
    expect([keys[0], keys.at(-1), keys.length]).toEqual([
      first,
      localDay(new Date()),
      Math.round((Date.parse(localDay(new Date())) - Date.parse(first)) / 86_400_000) + 1,
    ]);
  });

  it.each(ZONES)('charts days, weekdays and hours in %s exactly', async (tz) => {
    for (const kind of ['day', 'weekday', 'hour'] as const) {
      expect(await charted(tz, kind), `${tz} ${kind}`).toEqual(expected(tz, kind));
    }
    expect(Object.keys(expected(tz, 'weekday')).every((key) => WEEKDAYS.includes(key.split(' ')[0]!))).toBe(true);
  });

  // Short windows start inside a month, which is read by hours; in a zone whose offset is not a whole hour its whole
  // UTC days (today's too) come from the day slots instead (hour-chart-sql.ts, slot_days).
  it.each(ZONES)('charts hours of the day over windows that start inside a month in %s exactly', async (tz) => {
    for (const window of [0, 1, 2, 7, 30, 45]) {
      const [bounds] = await db.query<{ start: Date }>(`SELECT ${daysWindowStart('$1', '$2')} AS start`, [tz, window]);
      const start = new Date(bounds!.start);
      const want = tally(
        tz,
        plays.filter((play) => play.startedAt >= start),
        (p, play) => `${p.hour} ${play.libraryId === 'a' ? 'A' : 'B'}`,
      );
      expect(await charted(tz, 'hour', window), `${tz} ${window} days`).toEqual(want);
    }
  });

  // The year in review reads the same reader with an end: a window that starts and ends off the quarter hours,
  // across offset changes, by local day and hour (hours and quarters only) and by hour of the day (whole months too).
  it.each(ZONES)('charts a window with an end in %s exactly, by day and hour and by hour of the day', async (tz) => {
    const start = new Date('2026-06-23T10:07:00Z');
    const end = new Date('2026-11-03T05:41:00Z');
    for (const timeOfDay of [false, true]) {
      const inWindow = plays.filter((play) => play.startedAt >= start && play.startedAt < end);
      const want = tally(
        tz,
        inWindow,
        (p, play) => `${timeOfDay ? Number(p.hour) : `${p.year}-${p.month}-${p.day}T${p.hour}`} ${play.libraryId}`,
      );
      const rows = await db.query<{ key: string; plays: number; played_seconds: string }>(
        chartRollup({
          start: '$2::timestamptz',
          end: '$3::timestamptz',
          tz: '$4',
          separator: ' ',
          localKey: timeOfDay ? (local) => `extract(hour FROM ${local})::int::text` : (local) => `to_char(${local}, 'YYYY-MM-DD"T"HH24')`,
          timeOfDay,
        }),
        [serverId, start, end, tz],
      );
      const got = Object.fromEntries(rows.map((row) => [row.key, [row.plays, Number(row.played_seconds)]]));
      expect(got, `${tz} timeOfDay=${timeOfDay}`).toEqual(want);
    }
  });

  // A whole month with an offset change is read from the month level keyed with a reference day's offset, and the
  // hours of its other days are moved to their own key (hour rows, or quarter rows for an hour split between two
  // local hours): random windows with an end, so that whole months with and without changes, partial first months
  // and ends inside them all occur, in zones with whole-hour, half-hour and negative-offset changes or none.
  it('charts random windows with an end by hour of the day exactly (fast-check)', async () => {
    const zones = [
      'America/New_York',
      'America/Santiago',
      'Europe/Dublin',
      'Australia/Lord_Howe',
      'Australia/Adelaide',
      'Pacific/Chatham',
      'America/St_Johns',
      'Asia/Kathmandu',
      'UTC',
    ];
    const moment = fc.integer({ min: from - 86_400_000, max: Date.now() });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...zones), moment, moment, async (tz, a, b) => {
        const start = new Date(Math.min(a, b));
        const end = new Date(Math.max(a, b) + 1);
        const want = tally(
          tz,
          plays.filter((play) => play.startedAt >= start && play.startedAt < end),
          (p, play) => `${Number(p.hour)} ${play.libraryId}`,
        );
        const rows = await db.query<{ key: string; plays: number; played_seconds: string }>(
          chartRollup({
            start: '$2::timestamptz',
            end: '$3::timestamptz',
            tz: '$4',
            separator: ' ',
            localKey: (local) => `extract(hour FROM ${local})::int::text`,
            timeOfDay: true,
          }),
          [serverId, start, end, tz],
        );
        const got = Object.fromEntries(rows.map((row) => [row.key, [row.plays, Number(row.played_seconds)]]));
        expect(got, `${tz} ${start.toISOString()} – ${end.toISOString()}`).toEqual(want);
      }),
      { numRuns: 12, seed: 36 },
    );
  }, 120_000);
});
