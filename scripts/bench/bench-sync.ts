#!/usr/bin/env -S npx tsx
// `npm run bench:sync`: full sync of the simulator's large preset by a real Reelstat process (embedded
// PostgreSQL, all roles), then an unchanged second full sync, then a partial sync after 100 new items.
// Prints JSON: items, wall time, items/s and the peak RSS of the Reelstat process per phase.
// Reelstat runs as `npm start` runs it: compiled (a clone of HEAD built with tsc into a temporary folder,
// node_modules linked), unless BENCH_FROM_SOURCE=1 (tsx). The simulator runs in a process of its own so that
// its memory is not counted.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../server-node-flags.mjs';
import { call as kitCall, waitFor } from '../../services/core/src/test-support/test-kit.js';
import { freePort, memoryMb } from './process-stats.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scale = process.env.BENCH_SCALE ?? 'large';
const work = mkdtempSync(path.join(tmpdir(), 'reelstat-bench-sync-'));
const apiKey = randomBytes(16).toString('hex');

/** A clone of HEAD, compiled; its node_modules link to ours, except the workspace packages (the clone's own). */
function compiledReelstat(): { cwd: string; args: string[]; mode: 'compiled' | 'source' } {
  const source = {
    cwd: root,
    args: [...SERVER_NODE_FLAGS, '--conditions=reelstat-source', '--import', 'tsx', 'services/server/src/main.ts'],
    mode: 'source' as const,
  };
  if (process.env.BENCH_FROM_SOURCE === '1') return source;
  const clone = path.join(work, 'reelstat');
  spawnSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' });
  mkdirSync(path.join(clone, 'node_modules/@reelstat'), { recursive: true });
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry !== '@reelstat') symlinkSync(path.join(root, 'node_modules', entry), path.join(clone, 'node_modules', entry));
  }
  for (const name of ['contract', 'core', 'scheduler', 'dispatcher', 'operator', 'api', 'server', 'jellyfin-sim']) {
    symlinkSync(`../../services/${name}`, path.join(clone, 'node_modules/@reelstat', name));
  }
  // Type errors in test helpers do not stop the emit; a missing entry point does.
  spawnSync(process.execPath, [path.join(clone, 'node_modules/typescript/bin/tsc'), '-b', 'services/server'], {
    cwd: clone,
    stdio: 'ignore',
  });
  const main = path.join(clone, 'services/server/dist/main.js');
  if (!existsSync(main)) {
    process.stderr.write('bench:sync: the compiled build failed, measuring from source (tsx)\n');
    return source;
  }
  // Run as `npm start` runs it (the same V8 flags).
  return { cwd: clone, args: [...SERVER_NODE_FLAGS, main], mode: 'compiled' };
}

function start(command: string, args: string[], env: Record<string, string>, cwd = root): ChildProcess {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', (code) => {
    if (code && code !== 0 && !stopping) process.stderr.write(`${command} ${args.join(' ')} exited with ${code}:\n${tail}\n`);
  });
  return child;
}

/** Waits for a condition with the benchmark's generous deadline (test-kit's waitFor). */
const waitUntil = (what: string, check: () => Promise<boolean>, timeoutMs = 300_000) =>
  waitFor(what, check, { timeoutMs, intervalMs: 250 });

let stopping = false;
const simPort = await freePort();
const appPort = await freePort();
const simUrl = `http://127.0.0.1:${simPort}`;
const appUrl = `http://127.0.0.1:${appPort}`;

const sim = start(
  process.execPath,
  ['--import', 'tsx', 'services/jellyfin-sim/src/cli.ts', '--scale', scale, '--port', String(simPort), '--api-key', apiKey, '--seed', '1'],
  {},
);
const reelstat = compiledReelstat();
const dataDir = mkdtempSync(path.join(work, 'data-'));
const app = start(
  process.execPath,
  reelstat.args,
  {
    PORT: String(appPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    JWT_SECRET: randomBytes(24).toString('hex'),
    UPDATE_CHECK_URL: '',
  },
  reelstat.cwd,
);

async function shutdown(): Promise<void> {
  stopping = true;
  for (const child of [app, sim]) {
    if (child.exitCode === null && child.pid) {
      process.kill(-child.pid, 'SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  rmSync(work, { recursive: true, force: true });
}

try {
  await waitUntil('the simulator', async () => (await fetch(`${simUrl}/System/Info/Public`)).ok);
  await waitUntil('Reelstat', async () => (await fetch(`${appUrl}/readyz`)).ok);

  const call = async (method: string, route: string, body?: unknown, token?: string): Promise<unknown> => {
    const answer = await kitCall(appUrl, method, route, { token, body });
    if (answer.status >= 400) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const password = createHash('sha3-512').update('bench-password').digest('hex');
  const { token } = (await call('POST', '/auth/createuser', { username: 'admin', password })) as { token: string };
  const state = (await (await fetch(`${simUrl}/__control/state`, { headers: { 'X-Emby-Token': apiKey } })).json()) as {
    counts: { items: number };
  };

  const pid = app.pid!;
  type Log = { Name: string; Result: string; Duration: number; Log: Array<{ Message: string }> };
  async function phase(start: string | (() => Promise<unknown>), task: string, runsBefore: number) {
    let peak = memoryMb(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, memoryMb(pid))), 100);
    const started = performance.now();
    await (typeof start === 'string' ? call('GET', start, undefined, token) : start());
    let run: Log | undefined;
    await waitUntil(
      task,
      async () => {
        const logs = ((await call('GET', '/logs/getLogs', undefined, token)) as Log[]).filter((l) => l.Name === task);
        run = logs.length > runsBefore && logs[0]!.Result !== 'Running' ? logs[0] : undefined;
        return run !== undefined;
      },
      1_800_000,
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (run!.Result !== 'Success') throw new Error(`${task} ${run!.Result}: ${run!.Log.map((l) => l.Message).join('\n')}`);
    const summary = run!.Log.at(-1)!.Message;
    const listed = Number(/(\d+) items in/.exec(summary)?.[1] ?? /(\d+) new or changed/.exec(summary)?.[1] ?? 0);
    return {
      seconds: Math.round(seconds * 10) / 10,
      items: listed,
      itemsPerSecond: Math.round(listed / seconds),
      peakRssMb: peak,
      summary,
    };
  }

  // The first full sync is the one linking the server starts.
  const full = await phase(() => call('POST', '/auth/configSetup', { JF_HOST: simUrl, JF_API_KEY: apiKey }, token), 'FullSyncTask', 0);
  const resync = await phase('/sync/beginSync', 'FullSyncTask', 1);
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${simUrl}/__control/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Emby-Token': apiKey },
      body: JSON.stringify({ type: 'Movie', name: `Bench Added ${i}` }),
    });
    if (!res.ok) throw new Error(`adding an item: ${res.status} ${await res.text()}`);
  }
  const partial = await phase('/sync/beginPartialSync', 'PartialSyncTask', 0);

  console.log(
    JSON.stringify(
      {
        scale,
        reelstat: reelstat.mode,
        serverItems: state.counts.items,
        fullSync: full,
        unchangedFullSync: { ...resync, ratioToFirst: Math.round((resync.seconds / full.seconds) * 100) / 100 },
        partialSyncAfter100New: partial,
        peakRssMbWholeRun: memoryMb(pid, 'VmHWM'),
        targets: { fullSyncSeconds: 600, peakRssMb: 300, unchangedRatio: 0.5, partialSyncSeconds: 10 },
      },
      null,
      2,
    ),
  );
} finally {
  await shutdown();
}
