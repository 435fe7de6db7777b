import client, { Registry } from 'prom-client';

/**
 * The process's Prometheus metrics. One registry per process (tests create several runtimes in one process,
 * so nothing is registered globally). Labels stay bounded: routes are templates, never raw URLs.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequestDuration: client.Histogram<'method' | 'route' | 'status'>;
  readonly leaderStatus: client.Gauge<'group'>;
  readonly roleInfo: client.Gauge<'role'>;
  readonly queueDepth: client.Gauge<'kind'>;
  readonly taskRuns: client.Counter<'task' | 'result'>;
  readonly taskDuration: client.Histogram<'task' | 'result'>;
  readonly taskLastSuccess: client.Gauge<'task'>;
  private queueDepthSource: (() => Promise<Array<[kind: string, depth: number]>>) | undefined;
  readonly embeddedPostgresRestarts: client.Counter;
  readonly backgroundErrors: client.Counter<'source'>;

  constructor(defaultLabels: Record<string, string> = {}) {
    this.registry.setDefaultLabels(defaultLabels);
    client.collectDefaultMetrics({ register: this.registry, prefix: 'reelstat_' });
    this.httpRequestDuration = new client.Histogram({
      name: 'reelstat_http_request_duration_seconds',
      help: 'HTTP request duration by route template, method and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.leaderStatus = new client.Gauge({
      name: 'reelstat_leader',
      help: '1 when this process leads its election group, else 0',
      labelNames: ['group'],
      registers: [this.registry],
    });
    this.roleInfo = new client.Gauge({
      name: 'reelstat_role_enabled',
      help: 'Roles this process runs (1 per role)',
      labelNames: ['role'],
      registers: [this.registry],
    });
    const depthSource = () => this.queueDepthSource?.();
    this.queueDepth = new client.Gauge({
      name: 'reelstat_queue_depth',
      help: 'Jobs waiting or running, by job kind',
      labelNames: ['kind'],
      registers: [this.registry],
      // Read at scrape time from the queue (Redis or in-process), by the processes that run task workers.
      async collect() {
        const depths = await depthSource()?.catch(() => []);
        for (const [kind, depth] of depths ?? []) this.set({ kind }, depth);
      },
    });
    this.taskRuns = new client.Counter({
      name: 'reelstat_task_runs_total',
      help: 'Finished task runs (syncs, backups, ...) by task name and result (success, failed, stopped)',
      labelNames: ['task', 'result'],
      registers: [this.registry],
    });
    this.taskDuration = new client.Histogram({
      name: 'reelstat_task_duration_seconds',
      help: 'Duration of finished task runs by task name and result',
      labelNames: ['task', 'result'],
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers: [this.registry],
    });
    this.taskLastSuccess = new client.Gauge({
      name: 'reelstat_task_last_success_timestamp_seconds',
      help: 'Unix time of the last successful run of each task on this process',
      labelNames: ['task'],
      registers: [this.registry],
    });
    new client.Counter({
      name: 'reelstat_cache_requests_total',
      help: 'Lookups in the in-process answer caches, by cache and result (hit, miss)',
      labelNames: ['cache', 'result'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [cache, counts] of cacheCounts()) {
          this.inc({ cache, result: 'hit' }, counts.hits);
          this.inc({ cache, result: 'miss' }, counts.misses);
        }
      },
    });
    this.embeddedPostgresRestarts = new client.Counter({
      name: 'reelstat_embedded_postgres_restarts_total',
      help: 'Times the supervisor restarted the embedded PostgreSQL after it died',
      registers: [this.registry],
    });
    this.backgroundErrors = new client.Counter({
      name: 'reelstat_background_errors_total',
      help: 'Errors caught outside a request: unhandled promise rejections and failed background loop iterations',
      labelNames: ['source'],
      registers: [this.registry],
    });
  }

  /** Where reelstat_queue_depth reads from (the task workers set it with their queue kinds). */
  watchQueueDepth(source: () => Promise<Array<[kind: string, depth: number]>>): void {
    this.queueDepthSource = source;
  }
}

/** Hit and miss counts of one cache; caches register themselves, the registry only reads them. */
export interface CacheCounts {
  hits: number;
  misses: number;
}
const caches = new Map<string, Array<WeakRef<CacheCounts>>>();

/** Counted caches are process-wide (several live in modules, not in a runtime): weakly held, summed per name. */
export function registerCacheCounts(name: string, counts: CacheCounts): void {
  const list = caches.get(name) ?? [];
  caches.set(name, [...list.filter((ref) => ref.deref() !== undefined), new WeakRef(counts)]);
}

function cacheCounts(): Array<[string, CacheCounts]> {
  return [...caches].map(([name, refs]) => {
    const total = { hits: 0, misses: 0 };
    for (const counts of refs.map((ref) => ref.deref())) {
      total.hits += counts?.hits ?? 0;
      total.misses += counts?.misses ?? 0;
    }
    return [name, total];
  });
}
