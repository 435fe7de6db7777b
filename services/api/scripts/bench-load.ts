/**
 * Load benchmark (`npm run bench:load`): the dashboard's request mix at a fixed target rate for a while, against a
 * Reelstat api process on a database filled by `npm run seed:history` (100,000 plays by default). Prints the
 * latency percentiles (p50, p95, p99), errors, non-2xx answers and the throughput reached, the CPU seconds the
 * Reelstat process used, then one JSON line. A benchmark, not a test: it prints figures and never fails on them.
 *
 *   npm run bench:load -- [--rate 500] [--duration 600] [--connections 50]
 *                         [--data-dir ./data/bench | --database-url URL] [--url http://host:port --api-key KEY]
 *                         [--node-flags '--cpu-prof --cpu-prof-dir=DIR'] [--from-source]
 *
 * Reelstat runs in a process of its own, compiled as `npm start` runs it (--from-source, or a failed build,
 * runs the TypeScript sources through tsx): the load generator must not take the event loop or the CPU it
 * measures. With --url it loads a Reelstat that is already running (authenticated by an API key) instead.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { clientPasswordDigest, loadConfig } from '@reelstat/core';
import { SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}
const rate = Number(argument('rate', '500'));
const duration = Number(argument('duration', '600'));
const connections = Number(argument('connections', '50'));
const dataDir = path.resolve(argument('data-dir', './data/bench'));
const databaseUrl = argument('database-url', loadConfig().databaseUrl ?? '');
const externalUrl = argument('url', '');
const apiKey = argument('api-key', '');
const nodeFlags = argument('node-flags', '').split(' ').filter(Boolean);
for (const [name, value] of [
  ['rate', rate],
  ['duration', duration],
  ['connections', connections],
] as const) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
}
if (externalUrl && !apiKey) throw new Error('--url needs --api-key (an API key created in Settings → API keys)');

interface Call {
  /** Relative weight in the mix. */
  weight: number;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}
const get = (weight: number, path: string): Call => ({ weight, method: 'GET', path });
const post = (weight: number, path: string, body: unknown): Call => ({ weight, method: 'POST', path, body });

/**
 * What browsers ask for, weighted by how often: the home page's cards on every visit, the history page and its
 * searches, then user, library and item pages, and the odd settings page. Calls that would ask a media server
 * (live sessions, images) are left out: the seeded database has none behind it.
 */
const MIX: Call[] = [
  ...(['Movie', 'Series', 'Audio'] as const).flatMap((type) => [
    post(4, '/stats/getMostViewedByType', { days: 30, type }),
    post(4, '/stats/getMostPopularByType', { days: 30, type }),
  ]),
  post(4, '/stats/getMostViewedLibraries', { days: 30 }),
  post(4, '/stats/getMostUsedClient', { days: 30 }),
  post(4, '/stats/getMostActiveUsers', { days: 30 }),
  post(4, '/stats/getPlaybackMethodStats', { days: 30 }),
  get(4, '/stats/getLibraryOverview'),
  get(4, '/api/getRecentlyAdded?GroupResults=true'),
  get(6, '/api/getHistory?size=25&page=1'),
  get(2, '/api/getHistory?size=25&page=4&sort=UserName&desc=false'),
  get(2, '/api/getHistory?size=25&search=storm'),
  get(2, '/stats/getViewsOverTime?days=30'),
  get(2, '/stats/getViewsByDays?days=30'),
  get(2, '/stats/getViewsByHour?days=30'),
  get(2, '/api/getLibraries'),
  get(1, '/stats/getLibraryCardStats'),
  get(1, '/stats/getAllUserActivity'),
  post(1, '/api/getUserDetails', { userid: 'user-1' }),
  post(1, '/api/getUserHistory?size=25&page=1', { userid: 'user-3' }),
  post(1, '/stats/getGlobalUserStats', { hours: 720, userid: 'user-1' }),
  post(1, '/api/getLibrary', { libraryid: 'lib-shows' }),
  post(1, '/api/getLibraryHistory?size=25&page=2', { libraryid: 'lib-movies' }),
  post(1, '/stats/getGlobalLibraryStats', { hours: 720, libraryid: 'lib-movies' }),
  post(1, '/api/getItemDetails', { Id: 'series-0' }),
  post(1, '/api/getItemHistory?size=25', { itemid: 'series-0' }),
  post(1, '/stats/getGlobalItemStats', { hours: 720, itemid: 'series-0' }),
  get(1, '/api/getTaskSettings'),
  get(1, '/api/keys'),
];

/** The mix as one request sequence each connection walks through (weights repeat a call). */
function sequence(headers: Record<string, string>) {
  return MIX.flatMap((call) =>
    Array.from({ length: call.weight }, () => ({
      method: call.method,
      path: call.path,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    })),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

/** A port nothing listens on now (the kernel's pick), for the Reelstat process. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** utime + stime of a process in seconds (Linux /proc; undefined elsewhere or once it is gone). */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

interface ReelstatProcess {
  url: string;
  child: ChildProcess;
  fromSource: boolean;
  stop(): Promise<void>;
}

/** Reelstat's api role in a process of its own, on the seeded database; resolves once /readyz answers 200. */
async function startReelstat(password: string): Promise<ReelstatProcess> {
  let fromSource = process.argv.includes('--from-source');
  if (!fromSource) {
    const build = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'services/server'], {
      cwd: root,
      stdio: 'pipe',
    });
    if (build.status !== 0) {
      console.warn(`The server build failed; measuring the sources through tsx:\n${build.stdout.toString().slice(0, 2000)}`);
      fromSource = true;
    }
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const entry = fromSource
    ? ['--conditions=reelstat-source', '--import', 'tsx', 'services/server/src/main.ts']
    : ['services/server/dist/main.js'];
  const env: Record<string, string> = {
    // The child inherits this environment (PATH, a DATABASE_URL given there…); not configuration read here.
    // eslint-disable-next-line no-restricted-properties
    ...(process.env as Record<string, string>),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ROLES: 'api',
    LOG_LEVEL: 'warn',
    UPDATE_CHECK_URL: '',
    ADMIN_USERNAME: 'bench',
    ADMIN_PASSWORD: password,
    JWT_SECRET: randomBytes(24).toString('hex'),
    DATABASE_POOL_MAX: String(Math.max(10, Math.min(connections, 50))),
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeFlags, ...entry], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Interrupted (Ctrl-C), the Reelstat process and its embedded PostgreSQL stop too.
  process.once('SIGINT', () => {
    child.kill('SIGTERM');
    void exited.then(() => process.exit(130));
  });
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (gone) throw new Error(`Reelstat exited before it was ready:\n${tail}`);
    const ready = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`Reelstat was not ready within 3 minutes:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    child,
    fromSource,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main() {
  let url = externalUrl.replace(/\/$/, '');
  let headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-token': apiKey };
  let reelstat: ReelstatProcess | undefined;
  if (!url) {
    const password = 'bench-password';
    reelstat = await startReelstat(password);
    url = reelstat.url;
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: clientPasswordDigest(password) }),
    });
    const { token } = (await login.json()) as { token?: string };
    if (!token) throw new Error(`login failed: ${login.status}`);
    headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  }
  const history = await fetch(`${url}/api/getHistory?size=10`, { headers });
  const plays = history.ok ? ((await history.json()) as { total?: number }).total : undefined;
  if (!plays) console.warn('The database has no plays: run `npm run seed:history` first (100,000 plays by default).');
  const cpuBefore = cpuSeconds(reelstat?.child.pid);

  try {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon({ url, connections, duration, overallRate: rate, requests: sequence(headers) }, (error, answer) =>
        error ? reject(error as Error) : resolve(answer),
      );
      // Every answer's latency, for percentiles autocannon does not report (p95).
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        latencies.push(responseTime);
        statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      });
    });
    const cpuAfter = cpuSeconds(reelstat?.child.pid);
    const cpuUsed = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    latencies.sort((a, b) => a - b);
    const figures = {
      plays,
      targetRate: rate,
      durationSeconds: duration,
      connections,
      requests: result.requests.total,
      requestsPerSecond: round(result.requests.average),
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.at(-1) ?? NaN),
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      statuses: Object.fromEntries(statuses),
      // CPU seconds the Reelstat process used over the run (PostgreSQL not included), and per wall-clock second.
      reelstatCpuSeconds: cpuUsed === undefined ? undefined : round(cpuUsed),
      reelstatCpuPerSecond: cpuUsed === undefined ? undefined : Math.round((cpuUsed / duration) * 100) / 100,
      fromSource: reelstat?.fromSource,
    };
    console.log(
      `\nDashboard mix at ${rate} requests/s for ${duration} s (${connections} connections)` +
        (plays === undefined ? '' : `, ${plays.toLocaleString('en')} plays`) +
        `:\n  throughput ${figures.requestsPerSecond} requests/s (${figures.requests} requests)` +
        `\n  latency p50 ${figures.p50} ms, p95 ${figures.p95} ms, p99 ${figures.p99} ms, max ${figures.max} ms` +
        `\n  errors ${figures.errors}, timeouts ${figures.timeouts}, non-2xx ${figures.non2xx}` +
        (figures.reelstatCpuPerSecond === undefined
          ? ''
          : `\n  Reelstat process CPU ${figures.reelstatCpuPerSecond} core-seconds per second`) +
        '\n',
    );
    console.log(JSON.stringify(figures));
  } finally {
    // Let requests autocannon left in flight finish before the pool closes.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await reelstat?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
