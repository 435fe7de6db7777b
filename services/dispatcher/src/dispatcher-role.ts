import { countDeadDeliveries, DeliveryDispatcher, WebhookMetrics, type Role, type Runtime } from '@reelstat/core';

/**
 * The dispatcher delivers webhooks from the outbox (webhook_deliveries), so slow or failing receivers never
 * hold up the scheduler or the API. Run as many replicas as you like: deliveries are claimed with
 * FOR UPDATE SKIP LOCKED and leased, so one delivery is never sent by two dispatchers at once.
 */
export class DispatcherRole implements Role {
  readonly name = 'dispatcher';
  private running = false;

  async start(runtime: Runtime): Promise<() => Promise<void>> {
    const metrics = new WebhookMetrics(runtime.metrics.registry, () => countDeadDeliveries(runtime.db));
    const dispatcher = new DeliveryDispatcher({
      db: runtime.db,
      secretBox: runtime.services.secretBox,
      logger: runtime.logger.child({ component: 'dispatcher' }),
      metrics,
      settings: runtime.config.webhooks,
    });
    dispatcher.start();
    this.running = true;
    runtime.logger.info({ role: this.name, concurrency: runtime.config.webhooks.concurrency }, 'dispatcher started');
    return async () => {
      this.running = false;
      await dispatcher.stop();
    };
  }

  readiness(): Record<string, boolean> {
    return { running: this.running };
  }
}
