import { randomUUID } from 'node:crypto';
import type { EnqueueOptions, EnqueueResult, Job, JobHandler, JobQueue } from './job-queue.js';
import type { Logger } from '../logging/logger.js';

interface KindState {
  waiting: Job[];
  running: Job | undefined;
  handlers: JobHandler<unknown>[];
  nextHandler: number;
}

/** The single-process queue: jobs wait in memory and run one at a time per kind. */
export class InProcessQueue implements JobQueue {
  readonly backend = 'in-process' as const;
  private readonly kinds = new Map<string, KindState>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private readonly idle = new Set<() => void>();

  constructor(private readonly logger: Logger) {}

  async enqueue<Data>(kind: string, data: Data, options: EnqueueOptions = {}): Promise<EnqueueResult> {
    const id = options.jobId ?? randomUUID();
    const state = this.state(kind);
    if (options.jobId && (state.running?.id === id || state.waiting.some((job) => job.id === id))) return { id, added: false };
    const job: Job = { id, kind, data, attempt: 1 };
    if (options.delayMs && options.delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        state.waiting.push(job);
        this.pump(kind);
      }, options.delayMs);
      this.timers.add(timer);
    } else {
      state.waiting.push(job);
      queueMicrotask(() => this.pump(kind));
    }
    return { id, added: true };
  }

  async work<Data>(kind: string, handler: JobHandler<Data>): Promise<() => Promise<void>> {
    const state = this.state(kind);
    state.handlers.push(handler as JobHandler<unknown>);
    queueMicrotask(() => this.pump(kind));
    return async () => {
      state.handlers = state.handlers.filter((h) => h !== handler);
    };
  }

  async depth(kind: string): Promise<number> {
    const state = this.kinds.get(kind);
    return state ? state.waiting.length + (state.running ? 1 : 0) : 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    // Let running jobs finish: they may be writing.
    while ([...this.kinds.values()].some((state) => state.running)) {
      await new Promise<void>((resolve) => this.idle.add(resolve));
    }
  }

  private state(kind: string): KindState {
    let state = this.kinds.get(kind);
    if (!state) {
      state = { waiting: [], running: undefined, handlers: [], nextHandler: 0 };
      this.kinds.set(kind, state);
    }
    return state;
  }

  private pump(kind: string): void {
    const state = this.state(kind);
    if (this.closed || state.running || state.handlers.length === 0) return;
    const job = state.waiting.shift();
    if (!job) return;
    // Round-robin over registered workers, like competing consumers.
    const handler = state.handlers[state.nextHandler++ % state.handlers.length]!;
    state.running = job;
    handler(job)
      .catch((error: unknown) => this.logger.error({ err: error, kind, jobId: job.id }, 'job failed'))
      .finally(() => {
        state.running = undefined;
        for (const resolve of this.idle) resolve();
        this.idle.clear();
        this.pump(kind);
      });
  }
}
