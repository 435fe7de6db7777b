#!/usr/bin/env node
// `npm run bench:startup`: measures what a newcomer experiences. Clones this repository (HEAD) into a
// temporary folder, runs `npm ci`, then `npm start` until /readyz answers 200; stops it; starts it again
// (warm); and reports the idle memory of the Reelstat process and of its embedded PostgreSQL. Prints JSON.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(path.join(tmpdir(), 'reelstat-cold-start-'));
const clone = path.join(work, 'reelstat');
const port = 3900 + Math.floor(Math.random() * 90);
const seconds = (ms) => Math.round(ms / 100) / 10;

function rssKb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.split(/\s+/)[1] ?? 0);
  } catch {
    return 0;
  }
}
function descendants(pid) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry), ...descendants(Number(entry)));
    } catch {
      // process went away
    }
  }
  return children;
}
function postgresPids(dataDir) {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postgres/cluster/postmaster.pid'), 'utf8').split('\n')[0]);
    return [pid, ...descendants(pid)];
  } catch {
    return [];
  }
}

async function startUntilReady() {
  const started = Date.now();
  const child = spawn('npm', ['start'], {
    cwd: clone,
    env: { ...process.env, PORT: String(port), LOG_FORMAT: 'json' },
    stdio: 'ignore',
    detached: true,
  });
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() - started > 180_000) throw new Error('not ready after 180 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, ms: Date.now() - started };
}
async function stop(child) {
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

const t0 = Date.now();
execFileSync('git', ['clone', '--quiet', root, clone]);
const cloneMs = Date.now() - t0;
const t1 = Date.now();
execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: clone, stdio: 'ignore' });
const npmCiMs = Date.now() - t1;

const first = await startUntilReady();
await new Promise((resolve) => setTimeout(resolve, 10_000)); // let it settle: idle means idle
const nodePids = descendants(first.child.pid).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node'));
const dataDir = path.join(clone, 'data');
const appRssKb = Math.max(...nodePids.map(rssKb), 0);
const pgRssKb = postgresPids(dataDir).reduce((sum, pid) => sum + rssKb(pid), 0);
await stop(first.child);
const second = await startUntilReady();
await stop(second.child);

console.log(
  JSON.stringify(
    {
      cloneSeconds: seconds(cloneMs),
      npmCiSeconds: seconds(npmCiMs),
      firstStartToReadySeconds: seconds(first.ms),
      coldCloneToReadySeconds: seconds(cloneMs + npmCiMs + first.ms),
      warmStartToReadySeconds: seconds(second.ms),
      idleRssMb: { reelstat: Math.round(appRssKb / 1024), embeddedPostgresSum: Math.round(pgRssKb / 1024) },
    },
    null,
    2,
  ),
);
rmSync(work, { recursive: true, force: true });
