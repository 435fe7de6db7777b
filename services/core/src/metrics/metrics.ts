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
    this.queueDepth = new client.Gauge({
      name: 'reelstat_queue_depth',
      help: 'Jobs waiting or running, by job kind',
      labelNames: ['kind'],
      registers: [this.registry],
    });
  }
}
