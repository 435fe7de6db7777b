/**
 * Which indexes does every SQL catalog read use? Runs the catalog's reads (test-support/sql-catalog.ts, with
 * the ids of a database made by `npm run seed:history`) against that database, then EXPLAINs each statement
 * sent, with its binds, and prints per statement the indexes its plan uses whose names match the pattern:
 *   node --conditions=reelstat-source --import tsx services/core/scripts/explain-sql-catalog.ts URL ['history_|play_rollups']
 * Run it before and after an index change and compare (how 0023's drops were checked). Writes are skipped.
 */
import pino from 'pino';
import { openDatabase, type Database } from '../src/db/database.js';
import { SQL_CATALOG } from '../src/test-support/sql-catalog.js';
import { StatisticsContext } from '../src/stats/statistics-context.js';
import { StatisticsService } from '../src/stats/statistics-service.js';
import { HistoryService } from '../src/history/history-service.js';
import { LibraryService } from '../src/library/library-service.js';
import { YearReviewService } from '../src/stats/year-review.js';

const db = openDatabase(process.argv[2]!, pino({ level: 'warn' }));
const ids: Record<string, string> = { u1: 'user-3', films: 'lib-shows', m1: 'movie-16773', s1: 'series-118' };
const swap = (v: unknown): unknown => (typeof v === 'string' && ids[v] ? ids[v] : Array.isArray(v) ? v.map(swap) : v);
const sent: Array<{ name: string; sql: string; bind: unknown }> = [];
let current = '';
const record = (sql: string, bind: unknown) => {
  if (/^\s*(WITH|SELECT)/i.test(sql) && !/pg_advisory|DELETE|INSERT|UPDATE/i.test(sql)) sent.push({ name: current, sql, bind });
};
const recording: Database = {
  ...db,
  query: (sql, bind, transaction) => {
    record(sql, bind);
    return db.query(sql, bind, transaction);
  },
  rows: (sql, bind) => {
    record(sql, bind);
    return db.rows(sql, bind);
  },
};
for (const [name, call] of Object.entries(SQL_CATALOG)) {
  if (/delete|purge/.test(name)) continue;
  current = name;
  const context = new StatisticsContext(recording, 'UTC');
  const services = {
    stats: new StatisticsService(recording, context),
    history: new HistoryService(recording, context),
    library: new LibraryService(recording, context),
    yearReview: new YearReviewService(recording, context),
  };
  // Proxy every service so that the catalog's ids become the seed's.
  const proxied = Object.fromEntries(
    Object.entries(services).map(([k, s]) => [
      k,
      new Proxy(s, {
        get: (t, p) =>
          typeof (t as never)[p] === 'function'
            ? (...a: unknown[]) => ((t as never)[p] as (...x: unknown[]) => unknown).apply(t, a.map(swapDeep))
            : (t as never)[p],
      }),
    ]),
  );
  await call(proxied as never).catch((e: unknown) => console.error(name, String(e)));
}
function swapDeep(v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swapDeep(x)]));
  return swap(v);
}
const watch = new RegExp(process.argv[3] ?? 'history_');
for (const { name, sql, bind } of sent) {
  const rows = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, bind as unknown[]).catch(() => []);
  const plan = JSON.stringify(rows[0]?.['QUERY PLAN'] ?? '');
  const used = [...new Set([...plan.matchAll(/"Index Name":"([^"]+)"/g)].map((m) => m[1]!))].filter((i) => watch.test(i));
  console.log(`${name}\t${used.join(',')}`);
}
await db.close();
