import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { EnqueueOptions, EnqueueResult, JobHandler, JobQueue } from './job-queue.js';
import type { Logger } from '../logging/logger.js';

/**
 * BullMQ on Redis: one BullMQ queue per job kind with a global concurrency of 1, so a kind never runs twice at
 * once across every replica, and a job id is added at most once while it waits or runs.
 */
export class BullMqQueue implements JobQueue {
  readonly backend = 'bullmq' as const;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Set<Worker>();
  private readonly connection: Redis;

  constructor(
    redisUrl: string,
    private readonly logger: Logger,
    /** Redis key prefix: installs (or test files) sharing one Redis keep apart by it. */
    private readonly prefix = 'reelstat',
  ) {
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
    this.connection.on('error', (error) => this.logger.warn({ err: error.message }, 'redis (queue) connection error'));
  }

  private async queue(kind: string): Promise<Queue> {
    let queue = this.queues.get(kind);
    if (!queue) {
      queue = new Queue(kind, { connection: this.connection, prefix: this.prefix });
      this.queues.set(kind, queue);
      await queue.setGlobalConcurrency(1);
    }
    return queue;
  }

  async enqueue<Data>(kind: string, data: Data, options: EnqueueOptions = {}): Promise<EnqueueResult> {
    const queue = await this.queue(kind);
    const id = options.jobId ?? randomUUID();
    if (options.jobId) {
      const existing = await queue.getJob(id);
      if (existing) {
        const state = await existing.getState();
        if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') {
          return { id, added: false };
        }
        await existing.remove().catch(() => undefined);
      }
    }
    await queue.add(kind, data, {
      jobId: id,
      delay: options.delayMs,
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 100 },
      attempts: 1,
    });
    return { id, added: true };
  }

  async work<Data>(kind: string, handler: JobHandler<Data>): Promise<() => Promise<void>> {
    await this.queue(kind);
    const worker = new Worker(
      kind,
      async (job) => {
        await handler({ id: job.id ?? '', kind, data: job.data as Data, attempt: job.attemptsMade + 1 });
      },
      // BullMQ duplicates the shared connection for the worker's blocking reads.
      { connection: this.connection, prefix: this.prefix, concurrency: 1, autorun: true },
    );
    worker.on('failed', (job, error) => this.logger.error({ err: error, kind, jobId: job?.id }, 'job failed'));
    worker.on('error', (error) => this.logger.warn({ err: error.message, kind }, 'queue worker error'));
    this.workers.add(worker);
    return async () => {
      this.workers.delete(worker);
      await worker.close();
    };
  }

  async depth(kind: string): Promise<number> {
    const queue = await this.queue(kind);
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  }

  async close(): Promise<void> {
    // Workers first: close() waits for the running job to finish.
    await Promise.all([...this.workers].map((worker) => worker.close()));
    this.workers.clear();
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.queues.clear();
    await this.connection.quit().catch(() => undefined);
  }
}
