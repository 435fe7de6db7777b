// k6 load script: the dashboard's request mix (the same calls and weights as `npm run bench:load`) at a constant
// arrival rate, against a running Reelstat. For users who run k6 (https://k6.io); Reelstat does not ship it.
//
//   k6 run -e BASE_URL=http://reelstat:3000 -e API_KEY=<key from Settings → API keys> \
//          -e RATE=500 -e DURATION=10m scripts/k6/dashboard-mix.js
//
// The ids in the mix (user-1, lib-movies, series-0 …) are those of `npm run seed:history`; on a real install set
// USER_ID, LIBRARY_ID and ITEM_ID to ids of yours.
/* global __ENV */
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:3000').replace(/\/$/, '');
const API_KEY = __ENV.API_KEY || '';
const RATE = Number(__ENV.RATE || 500);
const DURATION = __ENV.DURATION || '10m';
const USER_ID = __ENV.USER_ID || 'user-1';
const LIBRARY_ID = __ENV.LIBRARY_ID || 'lib-movies';
const ITEM_ID = __ENV.ITEM_ID || 'series-0';

export const options = {
  scenarios: {
    dashboard: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: 50,
      maxVUs: 200,
    },
  },
  thresholds: {
    http_req_failed: ['rate==0'],
    http_req_duration: ['p(99)<2000'],
  },
  summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max'],
};

const get = (weight, path) => ({ weight, method: 'GET', path });
const post = (weight, path, body) => ({ weight, method: 'POST', path, body });

const MIX = [
  ...['Movie', 'Series', 'Audio'].flatMap((type) => [
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
  post(1, '/api/getUserDetails', { userid: USER_ID }),
  post(1, '/api/getUserHistory?size=25&page=1', { userid: USER_ID }),
  post(1, '/stats/getGlobalUserStats', { hours: 720, userid: USER_ID }),
  post(1, '/api/getLibrary', { libraryid: LIBRARY_ID }),
  post(1, '/api/getLibraryHistory?size=25&page=2', { libraryid: LIBRARY_ID }),
  post(1, '/stats/getGlobalLibraryStats', { hours: 720, libraryid: LIBRARY_ID }),
  post(1, '/api/getItemDetails', { Id: ITEM_ID }),
  post(1, '/api/getItemHistory?size=25', { itemid: ITEM_ID }),
  post(1, '/stats/getGlobalItemStats', { hours: 720, itemid: ITEM_ID }),
  get(1, '/api/getTaskSettings'),
  get(1, '/api/keys'),
];
const WEIGHTED = MIX.flatMap((call) => Array.from({ length: call.weight }, () => call));

export function setup() {
  if (!API_KEY) throw new Error('set API_KEY (Settings → API keys in the dashboard)');
}

export default function () {
  const call = WEIGHTED[Math.floor(Math.random() * WEIGHTED.length)];
  const params = { headers: { 'content-type': 'application/json', 'x-api-token': API_KEY }, tags: { name: call.path.split('?')[0] } };
  const res =
    call.method === 'GET'
      ? http.get(`${BASE_URL}${call.path}`, params)
      : http.post(`${BASE_URL}${call.path}`, JSON.stringify(call.body), params);
  check(res, { 'status is 200': (r) => r.status === 200 });
}
