/**
 * Backup and restore benchmark (`npm run bench:backup`): on a database filled by `npm run seed:history`,
 * runs a backup and then a restore of that file, each in a child process of its own so that its peak RSS
 * is its own, and prints the time, the file size and the peak RSS of each (a table, then one JSON line).
 * A benchmark, not a test: it prints figures and never fails on them.
 *
 *   npm run bench:backup -- [--data-dir ./data/bench | --database-url URL] [--compress]
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../src/config/load-config.js';
import { openDatabase } from '../src/db/database.js';
import { EmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { AppSettings } from '../src/settings/app-settings.js';
import { BackupService } from '../src/backup/backup-service.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}
const phase = argument('phase', '');
const compress = process.argv.includes('--compress');

/** One phase in this (child) process: prints {ms, maxRssMb, …} as its last line. */
async function runPhase(url: string, dir: string) {
  const logger = pino({ level: 'warn' });
  const config = loadConfig({}, { DATABASE_URL: url, BACKUP_DIR: dir, DATA_DIR: dir, BACKUP_COMPRESS: String(compress) });
  const db = openDatabase(url, logger);
  const backups = new BackupService(config, db, new AppSettings(db));
  const started = performance.now();
  let result: Record<string, unknown>;
  if (phase === 'backup') {
    const { stored } = await backups.backup();
    result = { file: stored.name, bytes: stored.size };
  } else {
    const summary = await backups.restore(argument('file', ''));
    result = { rows: summary.kind === 'reelstat' ? Object.values(summary.tables).reduce((a, b) => a + b, 0) : 0 };
  }
  const ms = performance.now() - started;
  await db.close();
  console.log(JSON.stringify({ ...result, ms: Math.round(ms), maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

function child(args: string[]): Record<string, unknown> {
  const script = fileURLToPath(import.meta.url);
  const out = spawnSync(process.execPath, ['--conditions=reelstat-source', '--import', 'tsx', script, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`${args.join(' ')} failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

async function main() {
  if (phase) return runPhase(argument('database-url', ''), argument('dir', ''));
  const logger = pino({ level: 'warn' });
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
    console.log(`history: ${counts!.plays} plays, ${counts!.items} items${compress ? ' (compressed)' : ''}`);
    console.log(
      `backup : ${(Number(backup.ms) / 1000).toFixed(1)} s, file ${mb(Number(backup.bytes))} MB, peak RSS ${String(backup.maxRssMb)} MB`,
    );
    console.log(
      `restore: ${(Number(restore.ms) / 1000).toFixed(1)} s, ${String(restore.rows)} rows, peak RSS ${String(restore.maxRssMb)} MB`,
    );
    console.log(JSON.stringify({ plays: counts!.plays, compress, backup, restore }));
  } finally {
    await rm(dir, { recursive: true, force: true });
    await embedded?.stop();
  }
}

await main();
