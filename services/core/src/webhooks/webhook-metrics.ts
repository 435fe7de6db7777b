import client, { type Registry } from 'prom-client';

/** The dispatcher's metrics: deliveries by type and outcome, latency, and the dead-letter count. */
export class WebhookMetrics {
  readonly deliveries: client.Counter<'type' | 'outcome'>;
  readonly latency: client.Histogram<'type'>;
  readonly attemptDuration: client.Histogram<'type'>;
  readonly dead: client.Gauge;

  constructor(registry: Registry, countDead: () => Promise<number>) {
    this.deliveries = new client.Counter({
      name: 'reelstat_webhook_deliveries_total',
      help: 'Webhook delivery attempts by webhook type and outcome (delivered, retry, dead)',
      labelNames: ['type', 'outcome'],
      registers: [registry],
    });
    this.latency = new client.Histogram({
      name: 'reelstat_webhook_delivery_latency_seconds',
      help: 'Time from the event (delivery row written) to its successful delivery, by webhook type',
      labelNames: ['type'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800, 7200],
      registers: [registry],
    });
    this.attemptDuration = new client.Histogram({
      name: 'reelstat_webhook_attempt_duration_seconds',
      help: 'Duration of one delivery attempt (the receiver answering), by webhook type',
      labelNames: ['type'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.dead = new client.Gauge({
      name: 'reelstat_webhook_dead_deliveries',
      help: 'Deliveries that gave up (dead letters) and wait for a retry from the Webhooks tab',
      registers: [registry],
      async collect() {
        this.set(await countDead().catch(() => 0));
      },
    });
  }
}
