import { afterEach, describe, expect, it } from 'vitest';
import type { JobQueue } from './job-queue.js';
import { InProcessQueue } from './in-process-queue.js';
import { BullMqQueue } from './bullmq-queue.js';
import { testLogger, testRedisUrl, uniqueRedisPrefix, waitUntil } from '../test-support/test-services.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The same contract for both queues. "Two workers" means two separate queue clients (two processes in a
 * cluster), each registering a worker for the same kind.
 */
const backends: Array<{ name: string; pair: () => [JobQueue, JobQueue] }> = [
  {
    name: 'in-process',
    pair: () => {
      const queue = new InProcessQueue(testLogger);
      return [queue, queue];
    },
  },
  {
    name: 'bullmq',
    pair: () => {
      const prefix = uniqueRedisPrefix();
      return [new BullMqQueue(testRedisUrl(), testLogger, prefix), new BullMqQueue(testRedisUrl(), testLogger, prefix)];
    },
  },
];

describe.each(backends)('job queue contract: $name', ({ pair }) => {
  let queues: JobQueue[] = [];
  afterEach(async () => {
    await Promise.all([...new Set(queues)].map((queue) => queue.close()));
    queues = [];
  });

  it('runs a job enqueued once exactly once with two workers', async () => {
    const [a, b] = pair();
    queues = [a, b];
    const runs: string[] = [];
    await a.work<{ n: number }>('sync', async (job) => {
      runs.push(`a:${job.data.n}`);
    });
    await b.work<{ n: number }>('sync', async (job) => {
      runs.push(`b:${job.data.n}`);
    });
    await a.enqueue('sync', { n: 1 });
    await waitUntil(() => runs.length >= 1);
    // Jobs are taken in order: once a later job has run, a second run of the first would have started too.
    await a.enqueue('sync', { n: 2 });
    await waitUntil(() => runs.some((run) => run.endsWith(':2')));
    expect(runs.filter((run) => run.endsWith(':1'))).toHaveLength(1);
    expect(runs[0]).toMatch(/^[ab]:1$/);
  });

  it('de-duplicates by job id while the job waits or runs, and accepts it again afterwards', async () => {
    const [a, b] = pair();
    queues = [a, b];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runs: number[] = [];
    await a.work<{ n: number }>('full-sync', async (job) => {
      runs.push(job.data.n);
      await gate;
    });
    expect((await a.enqueue('full-sync', { n: 1 }, { jobId: 'full-sync' })).added).toBe(true);
    await waitUntil(() => runs.length === 1);
    expect((await b.enqueue('full-sync', { n: 2 }, { jobId: 'full-sync' })).added).toBe(false);
    release();
    await waitUntil(async () => (await a.depth('full-sync')) === 0);
    expect((await b.enqueue('full-sync', { n: 3 }, { jobId: 'full-sync' })).added).toBe(true);
    await waitUntil(() => runs.length === 2);
    expect(runs).toEqual([1, 3]);
  });

  it('never runs two jobs of one kind at the same time, across workers', async () => {
    const [a, b] = pair();
    queues = [a, b];
    let running = 0;
    let maxRunning = 0;
    let done = 0;
    const handler = async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await sleep(40);
      running -= 1;
      done += 1;
    };
    await a.work('partial-sync', handler);
    await b.work('partial-sync', handler);
    for (let i = 0; i < 6; i++) await (i % 2 ? a : b).enqueue('partial-sync', { i });
    await waitUntil(() => done === 6, 20_000);
    expect(maxRunning).toBe(1);
  });

  it('runs different kinds independently and reports depth', async () => {
    const [a] = pair();
    queues = [a];
    const seen: string[] = [];
    await a.enqueue('backup', {});
    await a.enqueue('backup', {});
    expect(await a.depth('backup')).toBe(2);
    await a.work('backup', async () => {
      seen.push('backup');
    });
    await a.work('import', async () => {
      seen.push('import');
    });
    await a.enqueue('import', {});
    await waitUntil(() => seen.length === 3);
    expect(seen.filter((kind) => kind === 'backup')).toHaveLength(2);
    expect(seen).toContain('import');
  });

  it('delays a job when asked', async () => {
    const [a] = pair();
    queues = [a];
    const startedAt = Date.now();
    let ranAt = 0;
    await a.work('later', async () => {
      ranAt = Date.now();
    });
    await a.enqueue('later', {}, { delayMs: 300 });
    await waitUntil(() => ranAt > 0);
    expect(ranAt - startedAt).toBeGreaterThanOrEqual(250);
  });

  it('keeps working after a job throws', async () => {
    const [a] = pair();
    queues = [a];
    const seen: number[] = [];
    await a.work<{ n: number }>('flaky', async (job) => {
      seen.push(job.data.n);
      if (job.data.n === 1) throw new Error('boom');
    });
    await a.enqueue('flaky', { n: 1 });
    await a.enqueue('flaky', { n: 2 });
    await waitUntil(() => seen.length === 2);
    expect(seen).toEqual([1, 2]);
  });
});
