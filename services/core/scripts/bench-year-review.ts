/**
 * Year-in-review benchmark (`npm run bench:year-review`): on a database filled by `npm run seed:history`,
 * computes the year in review of the server and of a few users for the year of the latest play, without the
 * answer cache, and prints the median time of each (and of each of its queries) over the runs.
 * A benchmark, not a test: it prints figures and never fails on them.
 *
 *   npm run bench:year-review -- [--data-dir ./data/bench | --database-url URL] [--runs 5] [--users 5]
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config/load-config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { EmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { StatisticsContext } from '../src/stats/statistics-context.js';
import { YearReviewService } from '../src/stats/year-review.js';
import {
  activeUsers,
  firstAndLast,
  genresOfYear,
  longestBinge,
  serverTotalsOfYear,
  serverYear,
  topsFromYearRollup,
  topsOfYear,
  userYearFromHistory,
} from '../src/stats/year-review-queries.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The 95th percentile (nearest rank): with few runs, the slowest. */
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;

/** Every run's time, in ms. */
async function times(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const measured: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    measured.push(performance.now() - started);
  }
  return measured;
}

async function timed(runs: number, work: () => Promise<unknown>): Promise<number> {
  return Math.round(median(await times(runs, work)));
}

async function main() {
  const logger = pino({ level: 'warn' });
  let url = argument('database-url', loadConfig().databaseUrl ?? '');
  let embedded: EmbeddedPostgres | undefined;
  if (!url) {
    embedded = new EmbeddedPostgres(path.join(path.resolve(argument('data-dir', './data/bench')), 'postgres'), logger);
    url = await embedded.start();
  }
  const db: Database = openDatabase(url, logger);
  try {
    const migrating = performance.now();
    const applied = await migrateToLatest(db, logger);
    if (applied.length) console.log(`migrated ${applied.join(', ')} in ${((performance.now() - migrating) / 1000).toFixed(1)} s`);
    // The year in review's own tables (0028, 0031): rows and size with their indexes.
    for (const table of ['play_genre_rollups', 'play_binge_runs', 'play_year_tops']) {
      const [size] = await db.query<{ rows: number; bytes: string }>(
        `SELECT (SELECT count(*) FROM ${table})::int AS rows, pg_total_relation_size('${table}')::text AS bytes`,
      );
      console.log(`${table}: ${size!.rows} rows, ${(Number(size!.bytes) / 1e6).toFixed(1)} MB`);
    }
    // The machine's 1-minute load average when the measurement starts and ends, printed beside the figures.
    const loadAtStart = loadavg()[0]!.toFixed(1);
    const runs = Number(argument('runs', '5'));
    const timeZone = 'UTC';
    const [server] = await db.query<{ id: string; year: number; plays: number }>(
      `SELECT m.id, extract(year FROM (SELECT max(started_at) FROM playback_history WHERE server_id = m.id))::int AS year,
         (SELECT count(*) FROM playback_history WHERE server_id = m.id)::int AS plays
       FROM media_servers m ORDER BY m.is_default DESC LIMIT 1`,
    );
    if (!server) throw new Error('no media server in this database: seed it first (npm run seed:history)');
    const { id: serverId, year } = server;
    const [inYear] = await db.query<{ plays: number }>(
      `SELECT count(*)::int AS plays FROM playback_history WHERE server_id = $1 AND started_at >= make_timestamptz($2, 1, 1, 0, 0, 0, 'UTC')`,
      [serverId, year],
    );
    const users = await db.query<{ user_id: string; plays: number }>(
      `SELECT key AS user_id, plays FROM play_totals WHERE server_id = $1 AND scope = 'user' ORDER BY plays DESC LIMIT $2`,
      [serverId, Number(argument('users', '5'))],
    );
    // A fresh context per run: the answer cache must not answer.
    const review = (userId?: string) =>
      new YearReviewService(db, new StatisticsContext(db, timeZone)).review({ year, userId, timeZone }, serverId);
    const parts = (userId: string | null) => ({
      ...(userId
        ? { serverTotals: () => serverTotalsOfYear(db, serverId, year, timeZone) }
        : { charts: () => serverYear(db, serverId, year, timeZone) }),
      activeUsers: () => activeUsers(db, serverId, year, timeZone),
      ...(userId ? { userFigures: () => userYearFromHistory(db, serverId, year, timeZone, userId) } : {}),
      // The server's tops from play_year_tops (0031); a user's from their plays of the year.
      ...(userId
        ? { tops: () => topsOfYear(db, serverId, year, timeZone, userId) }
        : {
            tops: () => topsFromYearRollup(db, serverId, year, timeZone),
            genres: () => genresOfYear(db, serverId, year, timeZone, null),
          }),
      binge: () => longestBinge(db, serverId, year, timeZone, userId),
      firstAndLast: () => firstAndLast(db, serverId, year, timeZone, userId),
    });
    console.log(`history: ${server.plays} plays, ${inYear!.plays} in ${year}; median of ${runs} runs, no cache`);
    const serverTimes = await times(runs, () => review());
    const serverMs = Math.round(median(serverTimes));
    const serverP95 = Math.round(p95(serverTimes));
    const serverParts: Record<string, number> = {};
    for (const [name, work] of Object.entries(parts(null))) serverParts[name] = await timed(runs, work);
    console.log(
      `server review: p50 ${serverMs} ms, p95 ${serverP95} ms  (${Object.entries(serverParts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`,
    );
    const userMs: number[] = [];
    const userTimes: number[] = [];
    for (const user of users) {
      const measured = await times(runs, () => review(user.user_id));
      userTimes.push(...measured);
      const ms = Math.round(median(measured));
      userMs.push(ms);
      console.log(`user ${user.user_id} (${user.plays} plays all time): p50 ${ms} ms, p95 ${Math.round(p95(measured))} ms`);
    }
    const userP95 = userTimes.length ? Math.round(p95(userTimes)) : null;
    const userParts: Record<string, number> = {};
    if (users[0]) for (const [name, work] of Object.entries(parts(users[0].user_id))) userParts[name] = await timed(runs, work);
    console.log(
      `busiest user's parts: ${Object.entries(userParts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    const load = `${loadAtStart} → ${loadavg()[0]!.toFixed(1)}`;
    console.log(`load (1 min): ${load}`);
    console.log(
      JSON.stringify({
        load,
        plays: server.plays,
        playsInYear: inYear!.plays,
        year,
        serverMs,
        serverP95,
        serverParts,
        userMedianMs: userMs.length ? median(userMs) : null,
        userP95,
        userParts,
      }),
    );
  } finally {
    await db.close();
    await embedded?.stop();
  }
}

await main();
