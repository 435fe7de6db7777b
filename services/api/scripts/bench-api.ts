/**
 * Statistics and history API benchmark (`npm run bench:api`). Starts a Reelstat api process on a database
 * filled by `npm run seed:history`, then prints, per endpoint, p50 and p95 warm latency of sequential calls,
 * and the throughput of 20 concurrent connections on the home-page mix (autocannon). A benchmark, not a test:
 * it prints figures (a table, then one JSON line) and never fails on them.
 *
 *   npm run bench:api -- [--data-dir ./data/bench | --database-url URL] [--samples 200] [--duration 15] [--connections 20]
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { clientPasswordDigest, loadConfig } from '@reelstat/core';
import pino from 'pino';
import { startProcess } from '@reelstat/server';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}
const samples = Number(argument('samples', '200'));
const duration = Number(argument('duration', '15'));
const connections = Number(argument('connections', '20'));
const dataDir = path.resolve(argument('data-dir', './data/bench'));
const databaseUrl = argument('database-url', loadConfig().databaseUrl ?? '');

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
  post('stats', 'getMostActiveUsers 365 days', '/stats/getMostActiveUsers', { days: 365 }),
  post('stats', 'getMostViewedLibraries 9999 days', '/stats/getMostViewedLibraries', { days: 9999 }),
  get('stats', 'getLibraryMetadata', '/stats/getLibraryMetadata'),
  get('stats', 'getLibraryCardStats', '/stats/getLibraryCardStats'),
  get('stats', 'getAllUserActivity', '/stats/getAllUserActivity'),
  post('stats', 'getUserLastPlayed', '/stats/getUserLastPlayed', { userid: 'user-1' }),
  post('stats', 'getLibraryLastPlayed', '/stats/getLibraryLastPlayed', { libraryid: 'lib-shows' }),
  post('stats', 'getGlobalUserStats 30 d', '/stats/getGlobalUserStats', { hours: 720, userid: 'user-1' }),
  post('stats', 'getGlobalUserStats 365 d', '/stats/getGlobalUserStats', { hours: 8760, userid: 'user-1' }),
  post('stats', 'getGlobalLibraryStats 30 d', '/stats/getGlobalLibraryStats', { hours: 720, libraryid: 'lib-movies' }),
  post('stats', 'getGlobalLibraryStats 365 d', '/stats/getGlobalLibraryStats', { hours: 8760, libraryid: 'lib-movies' }),
  post('stats', 'getGlobalItemStats 30 d', '/stats/getGlobalItemStats', { hours: 720, itemid: 'series-0' }),
  post('stats', 'getGlobalItemStats all', '/stats/getGlobalItemStats', { hours: 239976, itemid: 'series-0' }),
  get('stats', 'getGenreUserStats', '/stats/getGenreUserStats?userid=user-1'),
  get('stats', 'getGenreLibraryStats', '/stats/getGenreLibraryStats?libraryid=lib-movies'),
  post('stats', 'getLibraryItemsWithStats (shows)', '/stats/getLibraryItemsWithStats', { libraryid: 'lib-shows' }),
  post('stats', 'getLibraryItemsPlayMethodStats', '/stats/getLibraryItemsPlayMethodStats', { hours: 720, libraryid: 'lib-movies' }),
  get('stats', 'getViewsOverTime 20 d', '/stats/getViewsOverTime?days=20'),
  get('stats', 'getViewsOverTime 365 d', '/stats/getViewsOverTime?days=365'),
  get('stats', 'getViewsByDays 20 d', '/stats/getViewsByDays?days=20'),
  get('stats', 'getViewsByHour 20 d', '/stats/getViewsByHour?days=20&tz=Asia/Kolkata'),
  get('history', 'getHistory page 1', '/api/getHistory?size=10&page=1'),
  get('history', 'getHistory page 1000 (size 100)', '/api/getHistory?size=100&page=1000'),
  get('history', 'getHistory sort UserName', '/api/getHistory?size=25&page=3&sort=UserName&desc=false'),
  get('history', 'getHistory search', '/api/getHistory?size=25&search=storm'),
  get('history', 'getHistory search page 20', '/api/getHistory?size=25&page=20&search=android'),
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

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const logger = pino({ level: 'warn' });
  const password = 'bench-password';
  const config = loadConfig(
    {},
    {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl || undefined,
      PORT: '0',
      HOST: '127.0.0.1',
      ROLES: 'api',
      LOG_LEVEL: 'warn',
      UPDATE_CHECK_URL: '',
      METRICS_ENABLED: 'true',
      ADMIN_USERNAME: 'bench',
      ADMIN_PASSWORD: password,
      DATABASE_POOL_MAX: String(Math.max(10, connections)),
    },
  );
  const app = await startProcess(config, logger);
  try {
    const login = await fetch(`${app.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: clientPasswordDigest(password) }),
    });
    const { token } = (await login.json()) as { token: string };
    if (!token) throw new Error(`login failed: ${login.status}`);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const [history] = (await app.runtime.db.query<{ plays: number }>('SELECT count(*)::int AS plays FROM playback_history')) as Array<{
      plays: number;
    }>;

    const results: Array<{ group: string; name: string; first: number; p50: number; p95: number; bytes: number }> = [];
    for (const call of CALLS) {
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
      // The first call computes (answer caches are empty); the samples after it are what a dashboard gets warm.
      const first = (await once()).ms;
      for (let i = 0; i < 4; i += 1) await once();
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < samples; i += 1) {
        const sample = await once();
        times.push(sample.ms);
        bytes = sample.bytes;
      }
      times.sort((a, b) => a - b);
      results.push({
        group: call.group,
        name: call.name,
        first: round(first),
        p50: round(percentile(times, 50)),
        p95: round(percentile(times, 95)),
        bytes,
      });
    }

    const mix = await autocannon({
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

    console.log(`\nStatistics and history API at ${history?.plays.toLocaleString('en')} plays (${samples} sequential samples per call)\n`);
    console.log('| group | call | first call ms | p50 ms | p95 ms | answer bytes |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const row of results) console.log(`| ${row.group} | ${row.name} | ${row.first} | ${row.p50} | ${row.p95} | ${row.bytes} |`);
    console.log(
      `\nHome-page mix, ${connections} connections, ${duration} s: ${Math.round(mix.requests.average)} requests/s, ` +
        `latency p50 ${mix.latency.p50} ms, p97.5 ${mix.latency.p97_5} ms, p99 ${mix.latency.p99} ms, non-2xx ${mix.non2xx}, errors ${mix.errors}\n`,
    );
    const worst = (group: string) => Math.max(...results.filter((row) => row.group === group).map((row) => row.p95));
    console.log(
      JSON.stringify({
        plays: history?.plays,
        samples,
        worstP95: { stats: worst('stats'), history: worst('history'), detail: worst('detail') },
        homeMix: {
          connections,
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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
