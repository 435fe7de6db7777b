import type { Runtime } from '../runtime/runtime.js';
import { pruneDeliveries, runScheduledWebhooks } from './scheduled-webhooks.js';

const TICK_MS = 15_000;
const PRUNE_EVERY_MS = 3_600_000;

/** The scheduler leader's loop for scheduled webhooks (cron times are minutes: a 15 s tick is on time). */
export function startWebhookSchedule(runtime: Runtime, options: { tickMs?: number } = {}): () => Promise<void> {
  let stopped = false;
  let lastPrune = 0;
  let current: Promise<void> = Promise.resolve();
  const tick = async () => {
    await runScheduledWebhooks(runtime.db, runtime.config.timeZone, new Date(), runtime.logger);
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await pruneDeliveries(runtime.db, runtime.config.webhooks.retentionDays);
    }
  };
  const timer = setInterval(() => {
    current = current.then(() =>
      stopped ? undefined : tick().catch((error: unknown) => runtime.logger.warn({ err: error }, 'webhook schedule tick failed')),
    );
  }, options.tickMs ?? TICK_MS);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await current;
  };
}
