/**
 * CSV export benchmark (`npm run bench:export`): on a database filled by `npm run seed:history`, streams the
 * whole history as CSV (the same code as GET /api/exportHistory: the view's selection and order through a
 * cursor) into a sink that reads it slowly at first (backpressure) and then at full speed, and prints the
 * plays, bytes, time, peak RSS and the largest heap seen. A benchmark, not a test: it prints, never fails.
 *
 *   npm run bench:export -- [--data-dir ./data/bench | --database-url URL] [--sort ActivityDateInserted] [--desc true]
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config/load-config.js';
import { openDatabase } from '../src/db/database.js';
import { EmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openHistoryExport } from '../src/export/history-csv.js';
import type { HistorySort } from '../src/history/history-query.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

async function main() {
  const logger = pino({ level: 'warn' });
  let url = argument('database-url', loadConfig().databaseUrl ?? '');
  let embedded: EmbeddedPostgres | undefined;
  if (!url) {
    embedded = new EmbeddedPostgres(path.join(path.resolve(argument('data-dir', './data/bench')), 'postgres'), logger);
    url = await embedded.start();
  }
  const db = openDatabase(url, logger);
  try {
    await migrateToLatest(db, logger);
    const servers = await db.query<{ id: string }>('SELECT id FROM media_servers ORDER BY is_default DESC, created_at');
    const sort = argument('sort', 'ActivityDateInserted') as HistorySort;
    const desc = argument('desc', 'true') === 'true';
    let bytes = 0;
    let lines = 0;
    let peakHeap = 0;
    let chunks = 0;
    // The largest heap seen in each fifth of the export: flat from the first fifth to the last = bounded memory.
    const fifths = [0, 0, 0, 0, 0];
    const [{ total }] = (await db.query<{ total: number }>('SELECT count(*)::int AS total FROM playback_history')) as [{ total: number }];
    const sink = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        const heap = process.memoryUsage().heapUsed;
        peakHeap = Math.max(peakHeap, heap);
        const fifth = Math.min(4, Math.floor(((lines - 1) / Math.max(1, total)) * 5));
        fifths[fifth] = Math.max(fifths[fifth]!, heap);
        // The first 200 chunks arrive at a slow reader's pace: the export must wait, not pile up lines.
        if (++chunks <= 200) setTimeout(done, 5);
        else done();
      },
    });
    // The machine's 1-minute load average when the measurement starts and ends, printed beside the figures.
    const loadAtStart = loadavg()[0]!.toFixed(1);
    const started = performance.now();
    const exported = await openHistoryExport(
      db,
      servers.map((s) => s.id),
      { scope: { kind: 'all' }, filters: {}, search: '', sort, desc },
    );
    await pipeline(Readable.from(exported), sink);
    const seconds = (performance.now() - started) / 1000;
    const mb = (value: number) => Math.round(value / 1024 / 1024);
    const result = {
      plays: lines - 1,
      sort: `${sort} ${desc ? 'desc' : 'asc'}`,
      csvMb: mb(bytes),
      seconds: Number(seconds.toFixed(1)),
      playsPerSecond: Math.round((lines - 1) / seconds),
      peakHeapMb: mb(peakHeap),
      peakHeapPerFifthMb: fifths.map(mb),
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      load: `${loadAtStart} → ${loadavg()[0]!.toFixed(1)}`,
    };
    console.log(
      `exported ${result.plays} plays (${result.sort}), ${result.csvMb} MB of CSV in ${result.seconds} s; peak heap ${result.peakHeapMb} MB (per fifth of the export: ${result.peakHeapPerFifthMb.join(', ')} MB), peak RSS ${result.maxRssMb} MB; load ${result.load}`,
    );
    console.log(JSON.stringify(result));
  } finally {
    await db.close();
    await embedded?.stop();
  }
}

await main();
