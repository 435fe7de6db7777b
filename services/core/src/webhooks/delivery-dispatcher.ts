import type { Database } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import type { SecretBox } from '../security/secret-box.js';
import { Semaphore } from '../media-server/semaphore.js';
import { claimDeliveries, markDelivered, markFailed, renewLeases, type ClaimedDelivery } from './delivery-repository.js';
import { formatters, type OutgoingMessage } from './formatters/index.js';
import { HttpNotifier } from './http-notifier.js';
import { SmtpNotifier } from './smtp-notifier.js';
import { failure, type Notifier, type SendResult } from './notifier.js';
import { retryDelay } from './retry-policy.js';
import type { WebhookMetrics } from './webhook-metrics.js';
import { inBackgroundSpan } from '../tracing/background-span.js';

export interface DeliverySettings {
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  concurrency: number;
  hostConcurrency: number;
  pollIntervalMs: number;
  leaseMs: number;
  allowLinkLocal: boolean;
  maxResponseBytes: number;
}

export interface DeliveryDispatcherDeps {
  db: Database;
  secretBox: SecretBox;
  logger: Logger;
  metrics: WebhookMetrics;
  settings: DeliverySettings;
  notifiers?: Notifier[];
  random?: () => number;
}

/**
 * Claims due deliveries from the outbox and sends them, at most `concurrency` at a time and
 * `hostConcurrency` per receiving host. Claims are leases renewed while the work goes on, so a dispatcher
 * that dies mid-delivery lets another one take the delivery over (same idempotency key) once the lease ends.
 */
export class DeliveryDispatcher {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly hosts = new Map<string, Semaphore>();
  private readonly notifiers: Map<OutgoingMessage['kind'], Notifier>;
  private wake: (() => void) | undefined;
  private renewTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: DeliveryDispatcherDeps) {
    this.notifiers = new Map((deps.notifiers ?? [new HttpNotifier(), new SmtpNotifier()]).map((n) => [n.kind, n]));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const { settings } = this.deps;
    this.renewTimer = setInterval(() => void this.renew(), Math.max(100, Math.floor(settings.leaseMs / 3)));
    this.loop = this.run();
  }

  /** Stops claiming, then waits for the deliveries in flight (each bounded by its timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight.values()]);
    clearInterval(this.renewTimer);
  }

  get busy(): number {
    return this.inFlight.size;
  }

  private async run(): Promise<void> {
    const { settings, logger } = this.deps;
    while (this.running) {
      let claimedAll = false;
      const free = settings.concurrency - this.inFlight.size;
      if (free > 0) {
        try {
          const claimed = await claimDeliveries(this.deps.db, free, settings.leaseMs);
          for (const delivery of claimed) this.track(delivery);
          claimedAll = claimed.length === free;
        } catch (error) {
          logger.warn({ err: (error as Error).message }, 'webhook dispatcher: could not claim deliveries');
        }
      }
      // A full claim means more may be due: claim again as soon as a slot frees; else wait for the next poll.
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, claimedAll && free > 0 ? 0 : settings.pollIntervalMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private track(delivery: ClaimedDelivery): void {
    const work = inBackgroundSpan('webhook delivery', { 'reelstat.webhook.type': delivery.webhook.webhook_type }, () =>
      this.deliver(delivery),
    )
      .catch((error: unknown) => this.deps.logger.error({ err: error, delivery: delivery.id }, 'webhook dispatcher: delivery crashed'))
      .finally(() => {
        this.inFlight.delete(delivery.lease_token);
        this.wake?.();
      });
    this.inFlight.set(delivery.lease_token, work);
  }

  private async renew(): Promise<void> {
    try {
      await renewLeases(this.deps.db, [...this.inFlight.keys()], this.deps.settings.leaseMs);
    } catch (error) {
      this.deps.logger.warn({ err: (error as Error).message }, 'webhook dispatcher: could not renew leases');
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { settings, metrics, db, logger } = this.deps;
    const { webhook } = delivery;
    let message: OutgoingMessage;
    let secret: string | null = null;
    let result: SendResult;
    const started = Date.now();
    try {
      secret = webhook.secret_encrypted ? this.deps.secretBox.open(webhook.secret_encrypted) : null;
      message = formatters[webhook.webhook_type](delivery.payload, {
        webhook,
        secret,
        idempotencyKey: delivery.idempotency_key,
        now: new Date(),
      });
      const notifier = this.notifiers.get(message.kind);
      if (!notifier) throw new Error(`no sender for ${message.kind} messages`);
      const release = await this.hostSlot(message, webhook.url).acquire();
      try {
        result = await notifier.send(message, {
          timeoutMs: settings.timeoutMs,
          allowLinkLocal: settings.allowLinkLocal,
          maxResponseBytes: settings.maxResponseBytes,
          secret,
          target: { url: webhook.url, options: webhook.options },
        });
      } finally {
        release();
      }
    } catch (error) {
      result = failure((error as Error).message, false);
    }
    metrics.attemptDuration.observe({ type: webhook.webhook_type }, (Date.now() - started) / 1000);
    const outcome = { statusCode: result.statusCode, error: result.error };
    if (result.ok) {
      if (await markDelivered(db, delivery, outcome)) {
        metrics.deliveries.inc({ type: webhook.webhook_type, outcome: 'delivered' });
        metrics.latency.observe({ type: webhook.webhook_type }, Math.max(0, Date.now() - new Date(delivery.created_at).getTime()) / 1000);
      }
      return;
    }
    const retryInMs = retryDelay(
      delivery.attempts,
      result,
      { maxAttempts: settings.maxAttempts, baseDelayMs: settings.retryBaseMs, maxDelayMs: settings.retryMaxMs },
      this.deps.random,
    );
    if (await markFailed(db, delivery, outcome, retryInMs)) {
      metrics.deliveries.inc({ type: webhook.webhook_type, outcome: retryInMs === null ? 'dead' : 'retry' });
      logger.info(
        { delivery: delivery.id, webhook: webhook.id, attempt: delivery.attempts, error: result.error, retryInMs },
        retryInMs === null ? 'webhook delivery is dead' : 'webhook delivery failed, will retry',
      );
    }
  }

  private hostSlot(message: OutgoingMessage, webhookUrl: string): Semaphore {
    let host: string;
    try {
      host = new URL(message.kind === 'http' ? message.url : webhookUrl).host;
    } catch {
      host = '';
    }
    let semaphore = this.hosts.get(host);
    if (!semaphore) {
      semaphore = new Semaphore(this.deps.settings.hostConcurrency);
      this.hosts.set(host, semaphore);
    }
    return semaphore;
  }
}
