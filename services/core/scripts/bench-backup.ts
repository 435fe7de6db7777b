/**
 * Backup and restore benchmark (`npm run bench:backup`): on a database filled by `npm run seed:history`,
 * runs a backup and then a restore of that file, each in a child process of its own so that its peak RSS
 * is its own (bench-backup-phase.mjs, on the compiled modules, built first), and prints the time of each
 * step, then the time, the file size and the peak RSS of each (a table, then one JSON line).
 * The phases run with the server's Node flags (SERVER_NODE_FLAGS: a backup or a restore runs in a server),
 * unless --node-flags says otherwise. It prints the 1-minute load average at the start and the end.
 * A benchmark, not a test: it prints figures and never fails on them.
 *
 *   npm run bench:backup -- [--data-dir ./data/bench | --database-url URL] [--compress] [--node-flags '…']
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.mjs';
import { loadConfig } from '../src/config/load-config.js';
import { openDatabase } from '../src/db/database.js';
import { EmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { migrateToLatest } from '../src/db/migrate.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}
const compress = process.argv.includes('--compress');
/** Node flags of the phase processes, e.g. --node-flags '--max-semi-space-size=4' (the server's by default). */
const nodeFlags = argument('node-flags', SERVER_NODE_FLAGS.join(' ')).split(' ').filter(Boolean);
const load = () => loadavg()[0]!.toFixed(1);
const root = fileURLToPath(new URL('../../../', import.meta.url));

function child(args: string[]): Record<string, unknown> {
  const script = fileURLToPath(new URL('./bench-backup-phase.mjs', import.meta.url));
  const out = spawnSync(process.execPath, [...nodeFlags, script, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (out.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${String(out.status)})`);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

async function main() {
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'services/core'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('building services/core failed');
  const logger = pino({ level: 'warn' });
  const loadAtStart = load();
  let url = argument('database-url', loadConfig().databaseUrl ?? '');
  let embedded: EmbeddedPostgres | undefined;
  if (!url) {
    embedded = new EmbeddedPostgres(path.join(path.resolve(argument('data-dir', './data/bench')), 'postgres'), logger);
    url = await embedded.start();
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'reelstat-bench-backup-'));
  try {
    const db = openDatabase(url, logger);
    await migrateToLatest(db, logger);
    const [counts] = await db.query<{ plays: number; items: number }>(
      'SELECT (SELECT count(*) FROM playback_history)::int AS plays, (SELECT count(*) FROM items)::int AS items',
    );
    await db.close();
    const backup = child(['--phase', 'backup', '--database-url', url, '--dir', dir, ...(compress ? ['--compress'] : [])]);
    const restore = child(['--phase', 'restore', '--database-url', url, '--dir', dir, '--file', String(backup.file)]);
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const loadAtEnd = load();
    console.log(
      `history: ${counts!.plays} plays, ${counts!.items} items${compress ? ' (compressed)' : ''}; node flags: ${nodeFlags.join(' ') || 'none'}`,
    );
    console.log(`load average (1 min): ${loadAtStart} at the start, ${loadAtEnd} at the end`);
    console.log(
      `backup : ${(Number(backup.ms) / 1000).toFixed(1)} s, file ${mb(Number(backup.bytes))} MB, peak RSS ${String(backup.maxRssMb)} MB`,
    );
    console.log(
      `restore: ${(Number(restore.ms) / 1000).toFixed(1)} s (swapped in after ${(Number(restore.liveMs) / 1000).toFixed(1)} s), ${String(restore.rows)} rows, peak RSS ${String(restore.maxRssMb)} MB`,
    );
    for (const [name, phase] of Object.entries({ backup, restore }))
      console.log(`${name} peak sampled during: ${JSON.stringify(phase.peakAt)}`);
    console.log(JSON.stringify({ plays: counts!.plays, compress, nodeFlags, load: [loadAtStart, loadAtEnd], backup, restore }));
  } finally {
    await rm(dir, { recursive: true, force: true });
    await embedded?.stop();
  }
}

await main();
