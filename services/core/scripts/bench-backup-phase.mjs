// One phase of `npm run bench:backup` (backup or restore), run by bench-backup.ts in a process of its own so
// that its peak RSS is its own. Plain JavaScript on the compiled modules (services/core/dist, built by the
// benchmark first): the compiled code is what users run, and the tsx loader alone adds about 40 MB of RSS.
// It loads only what a backup or a restore needs. Prints each progress step with its time to stderr, and
// {ms, maxRssMb, …} as its last stdout line.
import pino from 'pino';
import { loadConfig } from '../dist/config/load-config.js';
import { openDatabase } from '../dist/db/database.js';
import { AppSettings } from '../dist/settings/app-settings.js';
import { BackupService } from '../dist/backup/backup-service.js';

function argument(name) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? '') : '';
}

const phase = argument('phase');
const url = argument('database-url');
const dir = argument('dir');
const compress = process.argv.includes('--compress');

const config = loadConfig({}, { DATABASE_URL: url, BACKUP_DIR: dir, DATA_DIR: dir, BACKUP_COMPRESS: String(compress) });
const db = openDatabase(url, pino({ level: 'warn' }));
const backups = new BackupService(config, db, new AppSettings(db));
const started = performance.now();
const mb = (bytes) => Math.round(bytes / 1024 / 1024);
/**
 * Where the peak is: memory sampled every 200 ms and kept per step (maxRSS alone does not say whose memory it
 * is): RSS, V8's heap (used and reserved), memory outside it (external: Buffers, of which arrayBuffers).
 */
const KINDS = ['rss', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers'];
const blank = () => Object.fromEntries(KINDS.map((kind) => [kind, 0]));
const peak = blank();
let stepPeak = blank();
/** The step during which RSS was highest, with what made it up then. */
let peakAt = { step: '', ...blank() };
const sample = () => {
  const usage = process.memoryUsage();
  for (const kind of KINDS) {
    peak[kind] = Math.max(peak[kind], mb(usage[kind]));
    stepPeak[kind] = Math.max(stepPeak[kind], mb(usage[kind]));
  }
  if (mb(usage.rss) > peakAt.rss) peakAt = { step: lastStep, ...Object.fromEntries(KINDS.map((kind) => [kind, mb(usage[kind])])) };
};
const sampler = setInterval(sample, 200);
let lastStep = '';
/** When the swap committed: the restored data is live (the foreign keys are still being marked checked). */
let liveMs;
const step = (message) => {
  if (message === lastStep) return;
  sample();
  if (lastStep) {
    const p = stepPeak;
    process.stderr.write(
      `    peak of that step: RSS ${p.rss} MB, heap used ${p.heapUsed} of ${p.heapTotal} MB, external ${p.external} MB (buffers ${p.arrayBuffers} MB)\n`,
    );
  }
  stepPeak = blank();
  lastStep = message;
  if (message.startsWith('Restored') && liveMs === undefined) liveMs = Math.round(performance.now() - started);
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const cpu = process.cpuUsage();
  process.stderr.write(
    `  [${phase} ${((performance.now() - started) / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, RSS ${mb(rss)} MB, heap ${mb(heapUsed)} MB, external ${mb(external)} MB, buffers ${mb(arrayBuffers)} MB] ${message}\n`,
  );
};
let result;
if (phase === 'backup') {
  const { stored } = await backups.backup({ onProgress: (p) => step(`Writing ${p.table}`) });
  result = { file: stored.name, bytes: stored.size };
} else {
  const summary = await backups.restore(argument('file'), { onProgress: (_percent, message) => step(message) });
  result = { rows: summary.kind === 'reelstat' ? Object.values(summary.tables).reduce((a, b) => a + b, 0) : 0, liveMs };
}
const ms = performance.now() - started;
step('(end)');
clearInterval(sampler);
await db.close();
console.log(
  JSON.stringify({
    ...result,
    ms: Math.round(ms),
    sampledPeakMb: peak,
    peakAt,
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
