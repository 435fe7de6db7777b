import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { recordPlays, type PlayToRecord } from '../history/record-plays.js';
import { findRollupDifferences } from '../history/rollup-invariant.js';
import { REBUILD_ROLLUPS_SQL } from '../history/rollup-sql.js';
import { deletePlaybackActivity } from '../library/purge.js';
import { createHistoryTestDatabase } from '../test-support/test-services.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { viewsChart } from './chart-queries.js';
import { dayChartInputs, dayChartRollup } from './day-chart-sql.js';
import { daysWindowStart } from './time-window.js';

/**
 * The day and weekday charts read one row of 96 cumulative quarter-hour slots per UTC day and library (0037,
 * stats/day-chart-sql.ts): a local day is whole UTC days plus and minus the slot of each midnight. Compared here
 * with the plays' own local days (JavaScript's time-zone data) over random windows in zones of every kind, and
 * over years in which a zone's midnight fell at three different UTC times (Bahia de Banderas moved from Mountain
 * to Central time in April 2010, with DST on both sides: its midnights were at 07:00, 06:00 and 05:00 UTC), the
 * day Samoa skipped (30 December 2011), and through deletes and a rebuild.
 */
const ZONES = [
  'UTC',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
  'America/Bahia_Banderas',
  'Pacific/Apia',
];

describe('day charts from the day slots', () => {
  let db: Database;
  let close: () => Promise<void>;
  const serverId = randomUUID();
  let plays: PlayToRecord[] = [];

  const play = (index: number, startedAt: Date, random: () => number): PlayToRecord => ({
    serverId,
    playKey: `p${index}`,
    source: 'monitor',
    userId: 'u1',
    userName: 'Alice',
    itemId: `i${index % 40}`,
    itemName: 'Item',
    libraryId: random() < 0.6 ? 'a' : 'b',
    client: 'Web',
    playMethod: 'DirectPlay',
    startedAt,
    playedSeconds: 1 + Math.floor(random() * 3000),
  });

  beforeAll(async () => {
    ({ db, close } = await createHistoryTestDatabase(serverId));
    await db.query(
      `INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'a', 'A', 'movies'), ($1, 'b', 'B', 'tvshows')`,
      [serverId],
    );
    const random = seededRandom(37);
    const minute = 60_000;
    const between = (from: number, to: number) => new Date(from + Math.floor((random() * (to - from)) / minute) * minute);
    // Around Bahia de Banderas' change and Samoa's skipped day, then the last 400 days, and plays on the minutes
    // around UTC and local midnights (the slots' edges).
    const old = [Date.parse('2009-10-01T00:00:00Z'), Date.parse('2012-01-15T00:00:00Z')];
    const recent = [Date.now() - 400 * 86_400_000, Date.now() - minute];
    for (let index = 0; index < 1500; index += 1) plays.push(play(index, between(old[0]!, old[1]!), random));
    for (let index = 1500; index < 4000; index += 1) plays.push(play(index, between(recent[0]!, recent[1]!), random));
    const edges = ['2010-04-04T05:00:00Z', '2010-04-04T06:59:00Z', '2011-12-30T10:00:00Z', '2011-12-29T09:59:00Z', '2010-01-01T18:30:00Z'];
    edges.forEach((at, offset) => plays.push(play(4000 + offset, new Date(at), random)));
    expect(await recordPlays(db, plays)).toBe(plays.length);
    expect(await findRollupDifferences(db)).toEqual([]);
    // Planner statistics, as autovacuum gives a server within a minute of such writes (a restore analyzes what it
    // loads): the migration analysed the tables empty, and a plan chosen for a few rows rescanned the day plan once
    // per row, 15-28 s for these seventeen years of days (0.3 s with statistics); the test is about exactness.
    await db.query('ANALYZE');
  });
  afterAll(async () => {
    await close();
  });

  /** Plays and seconds per local day (or weekday) and library, from each play's local date as Intl gives it. */
  function expected(tz: string, kind: 'day' | 'weekday', days: number): Record<string, [number, number]> {
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    const weekday = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'long' });
    const today = Date.parse(`${local.format(new Date())}T00:00:00Z`);
    const cells: Record<string, [number, number]> = {};
    for (const p of plays) {
      const date = local.format(p.startedAt);
      // The window: the last `days` local days and today (all time: every play).
      if (days < 9999 && Date.parse(`${date}T00:00:00Z`) < today - days * 86_400_000) continue;
      const cell = (cells[`${kind === 'day' ? date : weekday.format(p.startedAt)} ${p.libraryId === 'a' ? 'A' : 'B'}`] ??= [0, 0]);
      cell[0] += 1;
      cell[1] += p.playedSeconds;
    }
    return cells;
  }

  async function charted(tz: string, kind: 'day' | 'weekday', days: number): Promise<Record<string, [number, number]>> {
    const cells: Record<string, [number, number]> = {};
    for (const row of (await viewsChart(db, serverId, tz, days, kind)).stats) {
      for (const library of ['A', 'B']) {
        const cell = row[library] as { count: number; duration: number };
        if (cell.count > 0) cells[`${row.Key} ${library}`] = [cell.count, cell.duration];
      }
    }
    return cells;
  }

  it.each(ZONES)('charts all time by day and weekday in %s exactly', async (tz) => {
    expect(await charted(tz, 'day', 9999), tz).toEqual(expected(tz, 'day', 9999));
    expect(await charted(tz, 'weekday', 9999), tz).toEqual(expected(tz, 'weekday', 9999));
  });

  it('charts random windows in random zones exactly (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES),
        fc.oneof(fc.integer({ min: 1, max: 420 }), fc.constant(9999)),
        fc.constantFrom('day' as const, 'weekday' as const),
        async (tz, days, kind) => {
          expect(await charted(tz, kind, days), `${tz} ${days} ${kind}`).toEqual(expected(tz, kind, days));
        },
      ),
      { numRuns: 25, seed: 37 },
    );
  }, 120_000);

  it('reads only the narrow totals index when no midnight falls inside a UTC day (UTC, Abidjan)', async () => {
    interface PlanNode {
      'Node Type': string;
      'Relation Name'?: string;
      'Index Name'?: string;
      'Actual Loops': number;
      'Actual Rows': number;
      Plans?: PlanNode[];
    }
    const walk = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(walk)];
    const start = daysWindowStart('$2', '$3');
    // The charts' statement, and the year in review's (the same reads, summed in SQL).
    const statements = [
      dayChartInputs({ start, tz: '$2' }),
      dayChartRollup({ start, tz: '$2', separator: '|', localKey: (local) => `${local}::date::text` }),
    ];
    for (const [sql, tz] of statements.flatMap((sql) => ['UTC', 'Africa/Abidjan'].map((tz) => [sql, tz] as const))) {
      const [row] = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, [
        serverId,
        tz,
        9999,
      ]);
      const reads = walk(row!['QUERY PLAN'][0]!.Plan).filter(
        (node) => node['Relation Name'] === 'play_rollups_by_library_day_slots' && node['Actual Loops'] > 0,
      );
      // The day totals come from 0038's index alone; the rows' arrays are not read (only the first day's lookup).
      const totals = reads.filter((node) => node['Index Name'] === 'play_rollups_by_library_day_slots_totals');
      expect(
        totals.map((node) => node['Node Type']),
        tz,
      ).toEqual(['Index Only Scan']);
      expect(totals[0]!['Actual Rows'], tz).toBeGreaterThan(1000);
      expect(
        reads.filter((node) => node['Node Type'] !== 'Index Only Scan'),
        tz,
      ).toEqual([]);
      expect(await charted(tz, 'day', 9999), tz).toEqual(expected(tz, 'day', 9999));
    }
  });

  it('stays exact through deletes and a rebuild of every level', async () => {
    const ids = await db.query<{ id: number; play_key: string }>(
      `SELECT id, play_key FROM playback_history WHERE server_id = $1 AND (id % 7 = 0 OR play_key IN ('p4000', 'p4002')) ORDER BY id`,
      [serverId],
    );
    expect(
      await deletePlaybackActivity(
        db,
        serverId,
        ids.map((row) => row.id),
      ),
    ).toBe(ids.length);
    const gone = new Set(ids.map((row) => row.play_key));
    plays = plays.filter((p) => !gone.has(p.playKey));
    expect(await findRollupDifferences(db)).toEqual([]);
    for (const tz of ['America/Bahia_Banderas', 'Pacific/Apia', 'Asia/Kolkata', 'Asia/Kathmandu']) {
      expect(await charted(tz, 'day', 9999), tz).toEqual(expected(tz, 'day', 9999));
    }
    // A level emptied and rebuilt from the history gives the same charts.
    await db.query(`UPDATE play_rollups_by_library_day_slots SET plays[50] = plays[50] + 1`);
    expect((await findRollupDifferences(db)).some((difference) => difference.level === 'library_day_slots')).toBe(true);
    await db.query(REBUILD_ROLLUPS_SQL);
    expect(await findRollupDifferences(db)).toEqual([]);
    for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
      expect(await charted(tz, 'weekday', 9999), tz).toEqual(expected(tz, 'weekday', 9999));
      expect(await charted(tz, 'day', 30), tz).toEqual(expected(tz, 'day', 30));
    }
  }, 60_000);
});
