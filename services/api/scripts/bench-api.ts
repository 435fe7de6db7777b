/**
 * Statistics and history API benchmark (`npm run bench:api`). Starts a Reelstat api process on a database
 * filled by `npm run seed:history` (in a process of its own with the server's Node flags: bench-api-server.ts),
 * then prints, per endpoint:
 *  - uncached p50/p95: a play is recorded before every sample (as on a busy server, where every finished play
 *    changes the history), so the answer cache, keyed by the history's version, cannot answer;
 *  - cached p50/p95: the same call repeated with the history unchanged (what the answer cache gives);
 * then the throughput of 20 concurrent connections on the home-page mix while a play is recorded every second
 * (autocannon), and the bytes per play (history table, its indexes and TOAST, and every rollup table).
 * The plays it records are deleted again at the end (with their rollups, through deletePlays). A benchmark,
 * not a test: it prints figures (a table, then one JSON line) and never fails on them.
 *
 *   npm run bench:api -- [--data-dir ./data/bench | --database-url URL] [--samples 30] [--cached-samples 100]
 *     [--duration 15] [--connections 20] [--play-every-ms 1000] [--only REGEX] [--no-mix] [--log-level warn]
 *     [--in-process] [--print-samples]
 * --only measures only the calls whose name matches; --no-mix leaves out the home-page mix; --log-level trace
 * prints every SQL statement with its time (JSON lines, beside the table); --in-process runs the server inside
 * the benchmark's own process, as the figures of docs/performance.md before issue 20's eighth session were taken;
 * --print-samples prints each call's uncached samples in the order taken (to stderr), to tell one slow sample,
 * the first after the start or a moment of the machine's, from a slow call.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { clientPasswordDigest, loadConfig } from '@reelstat/core';
import { forkBenchServer, startBenchServer } from './bench-api-server.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}
const samples = Number(argument('samples', '30'));
const cachedSamples = Number(argument('cached-samples', '100'));
const playEveryMs = Number(argument('play-every-ms', '1000'));
const duration = Number(argument('duration', '15'));
const connections = Number(argument('connections', '20'));
const dataDir = path.resolve(argument('data-dir', './data/bench'));
const databaseUrl = argument('database-url', loadConfig().databaseUrl ?? '');
const only = new RegExp(argument('only', '.'));
const withMix = !process.argv.includes('--no-mix');
const inProcess = process.argv.includes('--in-process');
const printSamples = process.argv.includes('--print-samples');

interface Call {
  group: 'stats' | 'history' | 'detail';
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}
const post = (group: Call['group'], name: string, path: string, body: unknown): Call => ({ group, name, method: 'POST', path, body });
const get = (group: Call['group'], name: string, path: string): Call => ({ group, name, method: 'GET', path });
const filters = (list: unknown) => encodeURIComponent(JSON.stringify(list));

/** The windows of the issue: 1, 7, 30, 365 days and all time (9999 days), as days and as hours. */
const WINDOWS = [1, 7, 30, 365, 9999].map((days) => ({ label: days === 9999 ? 'all' : `${days} d`, days, hours: days * 24 }));
/** Zones the charts are measured in: [short name, IANA name] (UTC: no parameter). */
const CHART_ZONES = [
  ['', ''],
  ['New_York', 'America/New_York'],
  ['Kolkata', 'Asia/Kolkata'],
  ['Kathmandu', 'Asia/Kathmandu'],
] as const;

const HOME_MIX: Call[] = [
  ...(['Movie', 'Series', 'Audio'] as const).flatMap((type) => [
    post('stats', `getMostViewedByType ${type}`, '/stats/getMostViewedByType', { days: 30, type }),
    post('stats', `getMostPopularByType ${type}`, '/stats/getMostPopularByType', { days: 30, type }),
  ]),
  post('stats', 'getMostViewedLibraries', '/stats/getMostViewedLibraries', { days: 30 }),
  post('stats', 'getMostUsedClient', '/stats/getMostUsedClient', { days: 30 }),
  post('stats', 'getMostActiveUsers', '/stats/getMostActiveUsers', { days: 30 }),
  post('stats', 'getPlaybackMethodStats', '/stats/getPlaybackMethodStats', { days: 30 }),
  get('stats', 'getLibraryOverview', '/stats/getLibraryOverview'),
  get('detail', 'getRecentlyAdded grouped', '/api/getRecentlyAdded?GroupResults=true'),
];

const CALLS: Call[] = [
  ...HOME_MIX,
  // Every card at the other windows of the issue: 1, 7, 365 days and all time (9999).
  ...[1, 7, 365, 9999].flatMap((days) => [
    ...(['Movie', 'Series', 'Audio'] as const).flatMap((type) => [
      post('stats', `getMostViewedByType ${type} ${days} days`, '/stats/getMostViewedByType', { days, type }),
      post('stats', `getMostPopularByType ${type} ${days} days`, '/stats/getMostPopularByType', { days, type }),
    ]),
    post('stats', `getMostActiveUsers ${days} days`, '/stats/getMostActiveUsers', { days }),
    post('stats', `getMostUsedClient ${days} days`, '/stats/getMostUsedClient', { days }),
    post('stats', `getPlaybackMethodStats ${days} days`, '/stats/getPlaybackMethodStats', { days }),
    post('stats', `getMostViewedLibraries ${days} days`, '/stats/getMostViewedLibraries', { days }),
  ]),
  get('stats', 'getLibraryMetadata', '/stats/getLibraryMetadata'),
  get('stats', 'getLibraryCardStats', '/stats/getLibraryCardStats'),
  get('stats', 'getAllUserActivity', '/stats/getAllUserActivity'),
  post('stats', 'getUserLastPlayed', '/stats/getUserLastPlayed', { userid: 'user-1' }),
  post('stats', 'getLibraryLastPlayed', '/stats/getLibraryLastPlayed', { libraryid: 'lib-shows' }),
  // The per-user, per-library and per-item totals at every window of the issue (hours; 9999 days is all time).
  ...WINDOWS.flatMap(({ label, hours }) => [
    post('stats', `getGlobalUserStats ${label}`, '/stats/getGlobalUserStats', { hours, userid: 'user-1' }),
    post('stats', `getGlobalLibraryStats ${label}`, '/stats/getGlobalLibraryStats', { hours, libraryid: 'lib-movies' }),
    post('stats', `getGlobalItemStats ${label}`, '/stats/getGlobalItemStats', { hours, itemid: 'series-0' }),
    post('stats', `getLibraryItemsPlayMethodStats ${label}`, '/stats/getLibraryItemsPlayMethodStats', { hours, libraryid: 'lib-movies' }),
  ]),
  // The three charts at every window, in UTC, a whole-hour zone with DST and the +05:30 and +05:45 offsets.
  ...CHART_ZONES.flatMap(([zone, tz]) =>
    WINDOWS.flatMap(({ label, days }) =>
      (['getViewsOverTime', 'getViewsByDays', 'getViewsByHour'] as const).map((chart) =>
        get('stats', `${chart} ${label}${zone ? ` ${zone}` : ''}`, `/stats/${chart}?days=${days}${tz ? `&tz=${tz}` : ''}`),
      ),
    ),
  ),
  get('history', 'getHistory page 1', '/api/getHistory?size=10&page=1'),
  get('history', 'getHistory page 1000 (size 100)', '/api/getHistory?size=100&page=1000'),
  get('history', 'getHistory sort UserName', '/api/getHistory?size=25&page=3&sort=UserName&desc=false'),
  get('history', 'getHistory search', '/api/getHistory?size=25&search=storm'),
  get('history', 'getHistory search page 20', '/api/getHistory?size=25&page=20&search=android'),
  // Search words from rare to nearly everywhere (shares at 100 k plays): the count and the plan depend on it.
  get('history', 'getHistory search rare title (0.05 %)', `/api/getHistory?size=25&search=${encodeURIComponent('storm last 321')}`),
  get('history', 'getHistory search rare user (0.2 %)', `/api/getHistory?size=25&search=${encodeURIComponent('user 123')}`),
  get('history', 'getHistory search rare words, common trigrams', `/api/getHistory?size=25&search=${encodeURIComponent('iron ghost')}`),
  get('history', 'getHistory search the (9 %)', '/api/getHistory?size=25&search=the'),
  get('history', 'getHistory search user 1 (26 %)', `/api/getHistory?size=25&search=${encodeURIComponent('user 1')}`),
  get('history', 'getHistory search episode (45 %)', '/api/getHistory?size=25&search=episode'),
  get('history', 'getHistory search episode page 20 size 100', '/api/getHistory?size=100&page=20&search=episode'),
  get('history', 'getHistory search 2 letters', '/api/getHistory?size=25&search=ro'),
  get('history', 'getHistory search 1 letter', '/api/getHistory?size=25&search=e'),
  get('history', 'getHistory search digits', '/api/getHistory?size=25&search=42'),
  get('history', 'getHistory search rare address (0.2 %)', `/api/getHistory?size=25&search=${encodeURIComponent('10.0.123.111')}`),
  get('history', 'getHistory search two words (0.4 %)', `/api/getHistory?size=25&search=${encodeURIComponent('red city')}`),
  get(
    'history',
    'getHistory search rare user sorted by title',
    `/api/getHistory?size=25&sort=NowPlayingItemName&search=${encodeURIComponent('user 123')}`,
  ),
  get('history', 'getHistory search nothing matches', `/api/getHistory?size=25&search=${encodeURIComponent('zzqx nothing')}`),
  post('history', 'getUserHistory search', '/api/getUserHistory?size=25&search=storm', { userid: 'user-3' }),
  post('history', 'getUserHistory search rare title', `/api/getUserHistory?size=25&search=${encodeURIComponent('iron ghost')}`, {
    userid: 'user-3',
  }),
  post('history', 'getLibraryHistory search page 20', '/api/getLibraryHistory?size=25&page=20&search=android', { libraryid: 'lib-shows' }),
  get(
    'history',
    'getHistory filter Transcode',
    `/api/getHistory?size=25&filters=${filters([{ field: 'PlayMethod', value: 'Transcode' }])}`,
  ),
  post('history', 'getUserHistory', '/api/getUserHistory?size=25&page=2', { userid: 'user-3' }),
  post('history', 'getLibraryHistory page 100', '/api/getLibraryHistory?size=25&page=100', { libraryid: 'lib-movies' }),
  post('history', 'getItemHistory (series)', '/api/getItemHistory?size=25', { itemid: 'series-0' }),
  post('detail', 'getUserDetails', '/api/getUserDetails', { userid: 'user-1' }),
  post('detail', 'getLibrary', '/api/getLibrary', { libraryid: 'lib-shows' }),
  post('detail', 'getItemDetails', '/api/getItemDetails', { Id: 'series-0' }),
  post('detail', 'getSeasons', '/api/getSeasons', { Id: 'series-0' }),
  post('detail', 'getEpisodes', '/api/getEpisodes', { Id: 'season-0-1' }),
  get('detail', 'getRecentlyAdded flat', '/api/getRecentlyAdded?GroupResults=false'),
  get('detail', 'getLibraries', '/api/getLibraries'),
  post('detail', 'getActivityTimeLine', '/api/getActivityTimeLine', {
    userId: 'user-5',
    libraries: ['lib-movies', 'lib-shows', 'lib-kids'],
  }),
];

/** What --no-mix reports in place of the home-page mix. */
const skippedMix = async (_options: autocannon.Options) =>
  ({ requests: { average: 0 }, latency: { p50: 0, p97_5: 0, p99: 0 }, non2xx: 0, errors: 0 }) as unknown as autocannon.Result;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const password = 'bench-password';
  const options = { dataDir, databaseUrl, connections, adminPassword: password, logLevel: argument('log-level', 'warn') };
  const app = await (inProcess ? startBenchServer : forkBenchServer)(options);
  try {
    const login = await fetch(`${app.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: clientPasswordDigest(password) }),
    });
    const { token } = (await login.json()) as { token: string };
    if (!token) throw new Error(`login failed: ${login.status}`);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const plays = await app.plays();

    const results: CallResult[] = [];
    for (const call of CALLS.filter((c) => only.test(c.name))) {
      const once = async () => {
        const started = performance.now();
        const res = await fetch(`${app.url}${call.path}`, {
          method: call.method,
          headers,
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
        });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`${call.name}: ${res.status} ${text.slice(0, 300)}`);
        return { ms: performance.now() - started, bytes: text.length };
      };
      // Uncached: a recorded play changes the history's version before each sample, so every answer is computed.
      const uncached: number[] = [];
      let bytes = 0;
      for (let i = 0; i < samples; i += 1) {
        await app.record();
        const sample = await once();
        uncached.push(sample.ms);
        bytes = sample.bytes;
      }
      // Cached: the history stays as it is, so the answer cache answers after the first call.
      await once();
      const cached: number[] = [];
      for (let i = 0; i < cachedSamples; i += 1) cached.push((await once()).ms);
      if (printSamples) console.error(`${call.name}: ${uncached.map((ms) => Math.round(ms)).join(' ')}`);
      results.push({
        group: call.group,
        name: call.name,
        p50: median(uncached),
        p95: p95(uncached),
        // The first sample after the process started reads pages PostgreSQL's buffers do not hold yet: shown
        // apart so that a p95 that is only that sample can be told from a slow call (it stays in the p95).
        firstMs: Math.round(uncached[0]! * 10) / 10,
        cachedP50: median(cached),
        cachedP95: p95(cached),
        bytes,
      });
    }

    // The heap the calls left in the server: what the answer cache still holds shows here.
    const heapAfterCallsMb = await app.heapUsedMb();

    // The home-page mix with the history changing as on a busy server: a play recorded every playEveryMs.
    let recording = true;
    let recordedDuringMix = 0;
    const writer = (async () => {
      while (recording && withMix) {
        await app.record();
        recordedDuringMix += 1;
        await new Promise((resolve) => setTimeout(resolve, playEveryMs));
      }
    })();
    const mix = await (withMix ? autocannon : skippedMix)({
      url: app.url,
      connections,
      duration,
      requests: HOME_MIX.map((call) => ({
        method: call.method,
        path: call.path,
        headers,
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      })),
    });

    recording = false;
    await writer;
    const storage = await app.storage();
    const bytesPerPlay = (bytes: number) => Math.round(bytes / Math.max(1, plays));
    await app.removeAll();

    console.log(
      `\nStatistics and history API at ${plays.toLocaleString('en')} plays, the server in ${app.where} ` +
        `(${samples} uncached samples, a play recorded before each; ${cachedSamples} cached samples)\n`,
    );
    console.log('| group | call | uncached p50 ms | uncached p95 ms | first uncached ms | cached p50 ms | cached p95 ms | answer bytes |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|');
    for (const row of results) {
      console.log(
        `| ${row.group} | ${row.name} | ${row.p50} | ${row.p95} | ${row.firstMs} | ${row.cachedP50} | ${row.cachedP95} | ${row.bytes} |`,
      );
    }
    console.log(`\nHeap in use after the calls (the server's process): ${heapAfterCallsMb} MB`);
    console.log(
      `\nHome-page mix, ${connections} connections, ${duration} s, a play recorded every ${playEveryMs} ms ` +
        `(${recordedDuringMix} recorded): ${Math.round(mix.requests.average)} requests/s, ` +
        `latency p50 ${mix.latency.p50} ms, p97.5 ${mix.latency.p97_5} ms, p99 ${mix.latency.p99} ms, non-2xx ${mix.non2xx}, errors ${mix.errors}\n`,
    );
    console.log('| relation | MB | bytes per play |');
    console.log('|---|---:|---:|');
    for (const [relation, size] of Object.entries(storage.relations)) {
      console.log(`| ${relation} | ${(size / 1048576).toFixed(1)} | ${bytesPerPlay(size)} |`);
    }
    console.log(`| **total** | ${(storage.total / 1048576).toFixed(1)} | **${bytesPerPlay(storage.total)}** |\n`);
    const worst = (group: string) => Math.max(...results.filter((row) => row.group === group).map((row) => row.p95));
    console.log(
      JSON.stringify({
        plays,
        samples,
        server: app.where,
        worstUncachedP95: { stats: worst('stats'), history: worst('history'), detail: worst('detail') },
        bytesPerPlay: bytesPerPlay(storage.total),
        heapAfterCallsMb,
        storage: storage.relations,
        homeMix: {
          connections,
          playEveryMs,
          requestsPerSecond: Math.round(mix.requests.average),
          p50: mix.latency.p50,
          p99: mix.latency.p99,
          non2xx: mix.non2xx,
        },
        calls: results,
      }),
    );
  } finally {
    // Let requests autocannon left in flight finish before the pool closes.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await app.stop();
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const median = (times: number[]) =>
  round(
    percentile(
      [...times].sort((a, b) => a - b),
      50,
    ),
  );
const p95 = (times: number[]) =>
  round(
    percentile(
      [...times].sort((a, b) => a - b),
      95,
    ),
  );

interface CallResult {
  group: string;
  name: string;
  p50: number;
  p95: number;
  /** The first uncached sample (cold buffers after the start). */
  firstMs: number;
  cachedP50: number;
  cachedP95: number;
  bytes: number;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
