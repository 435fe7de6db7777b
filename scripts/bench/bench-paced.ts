/**
 * The statistics page as a person loads it (`npm run bench:paced -- --url http://127.0.0.1:3000 --username U
 * --password P [--wait-ms 12000] [--rounds 7]`): against a running Reelstat, it waits, sends the page's ten card
 * calls at once, then sends them again right away, each round with a new window (a new answer for the cache),
 * and prints the median time of a batch after the pause and right after. What a pause costs is the pool's
 * connections closed in it (new logins, backends with cold caches). A benchmark: it prints, never fails.
 */
import { clientPasswordDigest } from '@reelstat/core';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}
const base = argument('url', 'http://127.0.0.1:3000');
const waitMs = Number(argument('wait-ms', '12000'));
const rounds = Number(argument('rounds', '7'));

const login = await fetch(`${base}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: argument('username', 'admin'), password: clientPasswordDigest(argument('password', '')) }),
});
const { token } = (await login.json()) as { token?: string };
if (!token) throw new Error(`login failed: ${login.status}`);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

/** The statistics page's cards over `days` (all at once, as the page sends them); the batch's milliseconds. */
async function batch(days: number): Promise<number> {
  const calls: Array<[string, unknown]> = [];
  for (const type of ['Movie', 'Series', 'Audio'])
    for (const call of ['getMostViewedByType', 'getMostPopularByType']) calls.push([call, { days, type }]);
  for (const call of ['getMostViewedLibraries', 'getMostUsedClient', 'getMostActiveUsers', 'getPlaybackMethodStats'])
    calls.push([call, { days }]);
  const started = performance.now();
  await Promise.all(
    calls.map(async ([call, body]) => {
      const answer = await fetch(`${base}/stats/${call}`, { method: 'POST', headers, body: JSON.stringify(body) });
      await answer.text();
      if (!answer.ok) throw new Error(`${call}: ${answer.status}`);
    }),
  );
  return performance.now() - started;
}

const afterPause: number[] = [];
const rightAfter: number[] = [];
let days = 40;
for (let round = 0; round < rounds; round += 1) {
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  afterPause.push(await batch(days++));
  rightAfter.push(await batch(days++));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(1);
console.log(`after ${waitMs} ms without requests: batch median ${median(afterPause)} ms; right after: ${median(rightAfter)} ms`);
console.log(
  `after the pause: ${afterPause.map((ms) => ms.toFixed(0)).join(' ')} | right after: ${rightAfter.map((ms) => ms.toFixed(0)).join(' ')}`,
);
