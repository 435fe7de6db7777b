/**
 * The charts' SQL before and after a change, interleaved on one database so that both see the same machine load
 * (`npm run bench:charts -- --data-dir DIR --before COMMIT`). "before" is the catalog file
 * (services/core/sql/stats/views-per-*-1.sql) at COMMIT, "after" the one in the working tree. Prints, per chart,
 * zone and window (1, 30, 365 days and all time), the median of 7 runs (--runs) of each in ms. Reads only. A benchmark: it prints figures, never fails on them.
 *
 * Database: the embedded PostgreSQL under --data-dir (a copy filled by `npm run seed:history`; not one in use).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { EmbeddedPostgres } from '../src/db/embedded-postgres.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Every chart in UTC, a whole-hour zone with DST and the +05:30 and +05:45 offsets. */
const CASES = ['views-per-day-1', 'views-per-weekday-1', 'views-per-hour-1'].flatMap((name) =>
  ['UTC', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu'].map((tz) => [name, tz] as const),
);

async function main() {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, before: { type: 'string' }, runs: { type: 'string' } } });
  if (!values['data-dir'] || !values.before) throw new Error('usage: npm run bench:charts -- --data-dir DIR --before COMMIT');
  const runs = Number(values.runs ?? 7);
  const file = (name: string) => `services/core/sql/stats/${name}.sql`;
  const before = (name: string) => execFileSync('git', ['show', `${values.before}:${file(name)}`], { cwd: ROOT, encoding: 'utf8' });
  const after = (name: string) => readFileSync(path.join(ROOT, file(name)), 'utf8');
  const embedded = new EmbeddedPostgres(path.join(path.resolve(values['data-dir']), 'postgres'), pino({ level: 'warn' }));
  const client = new pg.Client({ connectionString: await embedded.start() });
  await client.connect();
  try {
    const [server] = (await client.query<{ id: string }>('SELECT id FROM media_servers ORDER BY is_default DESC LIMIT 1')).rows;
    if (!server) throw new Error('no media server in this database');
    console.log('| chart | zone | days | before ms | after ms |\n|---|---|---:|---:|---:|');
    for (const [name, tz] of CASES) {
      for (const days of [1, 30, 365, 9999]) {
        const times = { before: [] as number[], after: [] as number[] };
        for (let run = 0; run < runs; run += 1) {
          for (const [version, text] of [
            ['before', before(name)],
            ['after', after(name)],
          ] as const) {
            const started = performance.now();
            await client.query(text, [server.id, tz, days]);
            times[version].push(performance.now() - started);
          }
        }
        const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!.toFixed(1);
        console.log(`| ${name} | ${tz} | ${days} | ${median(times.before)} | ${median(times.after)} |`);
      }
    }
  } finally {
    await client.end();
    await embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
