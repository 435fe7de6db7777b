#!/usr/bin/env -S npx tsx
// `npm run bench:webhooks`: 10,000 webhook events delivered by a real dispatcher process (ROLES=dispatcher,
// from source, default settings) against an embedded PostgreSQL to a receiver on loopback (in this process).
// Phase "steady": after a warm-up of BENCH_WARMUP events (default 2,000, not measured: a fresh process still
// loads and compiles code), events committed at a steady rate (BENCH_RATE per second, default 400) —
// p50/p95/max from the commit of an event's transaction to its arrival at the receiver. Phase "burst": 10,000 events committed
// at once — deliveries per second until the backlog is drained. Both check that every event arrived exactly
// once (idempotency keys) and that every delivery row is 'delivered'. Prints JSON.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { EmbeddedPostgres } from '../../services/core/src/db/embedded-postgres.js';
import { openDatabase } from '../../services/core/src/db/database.js';
import { migrateToLatest } from '../../services/core/src/db/migrate.js';
import { SecretBox } from '../../services/core/src/security/secret-box.js';
import { WebhookService } from '../../services/core/src/webhooks/webhook-service.js';
import { enqueueWebhookEvents, type WebhookEvent } from '../../services/core/src/webhooks/webhook-events.js';
import { freePort } from './process-stats.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 400);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000);
const BATCH_MS = 50;
const ENCRYPTION_KEY = 'bench-webhooks-encryption-key-0123456789';
const work = mkdtempSync(path.join(tmpdir(), 'reelstat-bench-webhooks-'));

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
}

function event(n: number): WebhookEvent & { event: 'playback_ended' } {
  return {
    event: 'playback_ended',
    server: { id: '00000000-0000-4000-8000-000000000001', name: 'bench' },
    occurred_at: new Date().toISOString(),
    data: {
      play_key: `bench-${n}`,
      user: { id: `u${n % 50}`, name: `User ${n % 50}` },
      item: { id: `i${n}`, name: `Item ${n}`, type: 'Episode', series_name: 'Bench Show', season_number: 1, episode_number: n % 20 },
      library_id: 'lib',
      client: 'Jellyfin Web',
      device_name: 'Firefox',
      play_method: 'DirectPlay',
      started_at: new Date().toISOString(),
      ended_at: new Date().toISOString(),
      played_seconds: 1200,
      paused_seconds: 0,
    },
  };
}

async function main() {
  const logger = pino({ level: 'warn' });
  const postgres = new EmbeddedPostgres(path.join(work, 'pg'), logger);
  const databaseUrl = await postgres.start();
  const db = openDatabase(databaseUrl, logger);
  let dispatcher: ChildProcess | undefined;
  try {
    await migrateToLatest(db, logger);
    // Receipt times by play key; a second arrival of one key is a double delivery.
    const arrivals = new Map<string, number>();
    let doubles = 0;
    let waiter: (() => void) | undefined;
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const key = (JSON.parse(body) as { data: { play_key: string } }).data.play_key;
        if (arrivals.has(key)) doubles++;
        else arrivals.set(key, performance.now());
        res.end('ok');
        waiter?.();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const service = new WebhookService(db, new SecretBox(ENCRYPTION_KEY), 'UTC');
    await service.create({
      name: 'bench',
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      webhook_type: 'generic',
      trigger_type: 'event',
      event_type: 'playback_ended',
      secret: 'bench-signing-secret',
    });

    const port = await freePort();
    dispatcher = spawn(
      process.execPath,
      [
        '--max-old-space-size=1024',
        // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the dispatcher, written when it stops.
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : []),
        '--conditions=reelstat-source',
        '--import',
        'tsx',
        'services/server/src/main.ts',
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          ROLES: 'dispatcher',
          PORT: String(port),
          HOST: '127.0.0.1',
          ENCRYPTION_KEY,
          JWT_SECRET: ENCRYPTION_KEY,
          DATA_DIR: work,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const ready = Date.now() + 120_000;
    while (
      !(await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > ready) throw new Error('the dispatcher did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const waitAll = async (total: number, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (arrivals.size < total) {
        if (Date.now() > deadline) throw new Error(`only ${arrivals.size} of ${total} events arrived`);
        await new Promise<void>((resolve) => {
          waiter = resolve;
          setTimeout(resolve, 200);
        });
      }
    };

    // Events committed at BENCH_RATE per second in batches every 50 ms; returns each event's commit time.
    const atSteadyRate = async (first: number, count: number) => {
      const committedAt = new Map<string, number>();
      const perBatch = Math.max(1, Math.round((RATE * BATCH_MS) / 1000));
      const start = performance.now();
      for (let sent = 0; sent < count;) {
        const batch = Array.from({ length: Math.min(perBatch, count - sent) }, (_, i) => event(first + sent + i));
        await db.sequelize.transaction((t) => enqueueWebhookEvents(db, t, batch));
        const now = performance.now();
        for (const e of batch) committedAt.set(e.data.play_key, now);
        sent += batch.length;
        const due = start + (sent / RATE) * 1000;
        if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      }
      return committedAt;
    };

    // Warm-up (not measured): a freshly started dispatcher still loads and compiles its code for a few seconds.
    await atSteadyRate(0, WARMUP);
    await waitAll(WARMUP, 300_000);

    const loadAtStart = loadavg()[0]!;
    // Steady phase: latency from each batch's commit to the event's arrival.
    const committedAt = await atSteadyRate(WARMUP, EVENTS);
    await waitAll(WARMUP + EVENTS, 300_000);
    const latencies = [...committedAt].map(([key, at]) => arrivals.get(key)! - at).sort((a, b) => a - b);

    // Burst phase: the same number again, committed at once; how fast the backlog drains.
    const burstStart = performance.now();
    for (let sent = 0; sent < EVENTS; sent += 1000) {
      const batch = Array.from({ length: Math.min(1000, EVENTS - sent) }, (_, i) => event(WARMUP + EVENTS + sent + i));
      await db.sequelize.transaction((t) => enqueueWebhookEvents(db, t, batch));
    }
    await waitAll(WARMUP + 2 * EVENTS, 600_000);
    const burstSeconds = (Math.max(...[...arrivals.values()].slice(WARMUP + EVENTS)) - burstStart) / 1000;

    // A delivery is recorded just after the receiver answered it: give the last outcomes time to be written.
    const countRows = async () =>
      (
        await db.query<{ delivered: number; other: number; attempts: number }>(
          `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*) FILTER (WHERE status <> 'delivered')::int AS other,
             max(attempts)::int AS attempts FROM webhook_deliveries`,
        )
      )[0]!;
    let rows = await countRows();
    for (const deadline = Date.now() + 30_000; rows.other > 0 && Date.now() < deadline; rows = await countRows()) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const result = {
      events: EVENTS,
      warmup_events: WARMUP,
      steady: {
        rate_per_second: RATE,
        latency_ms: {
          p50: Math.round(percentile(latencies, 0.5)),
          p95: Math.round(percentile(latencies, 0.95)),
          max: Math.round(latencies.at(-1) ?? 0),
        },
      },
      burst: { seconds: Number(burstSeconds.toFixed(2)), deliveries_per_second: Math.round(EVENTS / burstSeconds) },
      received: arrivals.size,
      doubled: doubles,
      lost: WARMUP + 2 * EVENTS - arrivals.size,
      rows: rows,
      // The machine's 1-minute load average at the start and end of the measured phases (shared machines).
      load_average: { start: Number(loadAtStart.toFixed(1)), end: Number(loadavg()[0]!.toFixed(1)) },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    receiver.close();
    if (doubles > 0 || result.lost > 0 || rows.other > 0) process.exitCode = 1;
  } finally {
    dispatcher?.kill('SIGTERM');
    if (dispatcher) await new Promise((resolve) => dispatcher!.once('exit', resolve));
    await db.close();
    await postgres.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
