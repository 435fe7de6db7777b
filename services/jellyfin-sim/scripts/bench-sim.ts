/**
 * `npm run bench:sim`: generation time and memory for the large preset, then the median and p95 time to
 * serve a 200-item /Items page over HTTP (varied StartIndex, types, fields and sorts). Prints JSON.
 * Targets: generation < 60 s, median page < 50 ms.
 */
import { startSimulator } from '../src/index.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const sim = await startSimulator({ scale: 'large', seed: 1, apiKey: 'bench' });
  const startupMs = performance.now() - t0;
  global.gc?.();
  const mem = process.memoryUsage();
  const counts = sim.control.counts();
  const shapes = [
    (i: number) =>
      `/Items?Recursive=true&IncludeItemTypes=Episode&StartIndex=${i * 997}&Limit=200&Fields=DateCreated,Path,MediaSources,Genres,ParentId`,
    (i: number) =>
      `/Items?recursive=true&includeItemTypes=Movie&startIndex=${(i * 131) % 4800}&limit=200&fields=DateCreated,MediaStreams,ProviderIds&sortBy=SortName&sortOrder=Ascending`,
    (i: number) => `/Items?Recursive=true&IncludeItemTypes=Audio&StartIndex=${i * 173}&Limit=200&Fields=DateCreated,Genres`,
    (i: number) =>
      `/Items?Recursive=true&IncludeItemTypes=Episode,Movie&SortBy=DateCreated&SortOrder=Descending&StartIndex=${i * 211}&Limit=200&Fields=DateCreated,Overview`,
    (i: number) => `/Items?Recursive=true&StartIndex=${i * 1201}&Limit=200`,
  ];
  const headers = { Authorization: `MediaBrowser Token="${sim.apiKey}"` };
  const times: number[] = [];
  const coldTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const shape = shapes[i % shapes.length] as (i: number) => string;
    const path = shape(Math.floor(i / shapes.length));
    const s = performance.now();
    const res = await fetch(sim.url + path, { headers });
    const body = (await res.json()) as { Items: unknown[] };
    const ms = performance.now() - s;
    if (res.status !== 200 || body.Items.length !== 200) throw new Error(`${path}: ${res.status}, ${body.Items.length} items`);
    bytes += JSON.stringify(body).length;
    (i < shapes.length ? coldTimes : times).push(ms);
  }
  const all = [...coldTimes, ...times].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 100) / 100;
  const result = {
    preset: 'large',
    counts,
    generationMs: round(sim.generationMs),
    startupMs: round(startupMs),
    memoryAfterGeneration: {
      rssMB: round(mem.rss / 2 ** 20),
      heapUsedMB: round(mem.heapUsed / 2 ** 20),
      heapTotalMB: round(mem.heapTotal / 2 ** 20),
    },
    itemsPage: {
      requests: REQUESTS,
      pageSize: 200,
      medianMs: round(percentile(all, 50)),
      p95Ms: round(percentile(all, 95)),
      maxMs: round(all[all.length - 1] ?? 0),
      firstRequestPerShapeMs: coldTimes.map(round),
      avgResponseKB: round(bytes / REQUESTS / 1024),
    },
    targets: { generationMsBelow: 60_000, medianMsBelow: 50 },
    pass: sim.generationMs < 60_000 && percentile(all, 50) < 50,
  };
  console.log(JSON.stringify(result, null, 2));
  await sim.stop();
  if (!result.pass) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
