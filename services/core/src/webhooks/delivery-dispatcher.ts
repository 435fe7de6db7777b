import type { Database } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import type { SecretBox } from '../security/secret-box.js';
import { Semaphore } from '../media-server/semaphore.js';
import { claimDeliveries, renewLeases, type ClaimedDelivery } from './delivery-repository.js';
import { CompletionWriter } from './completion-writer.js';
import { DeliveryWakeup } from './delivery-wakeup.js';
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
 *
 * Round trips are per batch, not per delivery: one claim fetches up to the free slots (and a busy dispatcher
 * claims again only once half of its slots are free), outcomes are written together by a CompletionWriter,
 * and leases are renewed in one statement. An idle dispatcher sleeps until PostgreSQL notifies it of queued
 * deliveries (DeliveryWakeup); the poll interval only paces retries that fall due and covers a lost
 * connection.
 */
export class DeliveryDispatcher {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly hosts = new Map<string, Semaphore>();
  private readonly notifiers: Map<OutgoingMessage['kind'], Notifier>;
  private readonly completions: CompletionWriter;
  private readonly wakeup: DeliveryWakeup;
  private notified = false;
  private sleeping = false;
  private wake: (() => void) | undefined;
  private renewTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: DeliveryDispatcherDeps) {
    this.notifiers = new Map((deps.notifiers ?? [new HttpNotifier(), new SmtpNotifier()]).map((n) => [n.kind, n]));
    this.completions = new CompletionWriter(deps.db);
    this.wakeup = new DeliveryWakeup(
      deps.db.url,
      () => {
        this.notified = true;
        this.wake?.();
      },
      deps.logger,
    );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const { settings } = this.deps;
    this.renewTimer = setInterval(() => void this.renew(), Math.max(100, Math.floor(settings.leaseMs / 3)));
    void this.wakeup.start();
    this.loop = this.run();
  }

  /** Stops claiming, then waits for the deliveries in flight (each bounded by its timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight.values()]);
    clearInterval(this.renewTimer);
    await this.wakeup.stop();
    for (const notifier of this.notifiers.values()) notifier.close?.();
  }

  get busy(): number {
    return this.inFlight.size;
  }

  /** Listening for queued deliveries, nothing in flight and no notification unanswered: asleep until woken. */
  get idle(): boolean {
    return this.wakeup.listening && this.sleeping && !this.notified && this.inFlight.size === 0;
  }

  private async run(): Promise<void> {
    const { settings, logger } = this.deps;
    while (this.running) {
      // A notification that arrives while this claim runs may be about rows it did not see: keep it for later.
      this.notified = false;
      let backlog = false;
      const free = settings.concurrency - this.inFlight.size;
      if (free > 0) {
        try {
          const claimed = await claimDeliveries(this.deps.db, free, settings.leaseMs);
          for (const delivery of claimed) this.track(delivery);
          backlog = claimed.length === free;
        } catch (error) {
          logger.warn({ err: (error as Error).message }, 'webhook dispatcher: could not claim deliveries');
        }
      }
      await this.waitForWork(backlog);
    }
  }

  /**
   * With a backlog (the last claim was full), claims again once half the slots are free: fewer, bigger
   * claims. Otherwise sleeps until notified of queued deliveries or the poll interval passes (due retries).
   */
  private async waitForWork(backlog: boolean): Promise<void> {
    const { settings } = this.deps;
    const refill = Math.max(1, Math.ceil(settings.concurrency / 2));
    const pollAt = Date.now() + settings.pollIntervalMs;
    while (this.running) {
      const free = settings.concurrency - this.inFlight.size;
      if (backlog ? free >= refill : free > 0 && (this.notified || Date.now() >= pollAt)) return;
      this.sleeping = true;
      await new Promise<void>((resolve) => {
        // Waiting for free slots needs no timer: every finished delivery wakes this loop.
        const timer = !backlog && free > 0 ? setTimeout(resolve, Math.max(0, pollAt - Date.now())) : undefined;
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.sleeping = false;
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
    const { settings, metrics, logger } = this.deps;
    const webhook = { ...delivery.webhook };
    let message: OutgoingMessage;
    let secret: string | null = null;
    let result: SendResult;
    let started = Date.now();
    try {
      secret = webhook.secret_encrypted ? this.deps.secretBox.open(webhook.secret_encrypted) : null;
      if (webhook.url_encrypted) webhook.url = this.deps.secretBox.open(webhook.url_encrypted);
      message = formatters[webhook.webhook_type](delivery.payload, {
        webhook,
        secret,
        idempotencyKey: delivery.idempotency_key,
        now: new Date(),
      });
      const notifier = this.notifiers.get(message.kind);
      if (!notifier) throw new Error(`no sender for ${message.kind} messages`);
      const release = await this.hostSlot(message, webhook.url).acquire();
      started = Date.now();
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
    const retryInMs = result.ok
      ? null
      : retryDelay(
          delivery.attempts,
          result,
          { maxAttempts: settings.maxAttempts, baseDelayMs: settings.retryBaseMs, maxDelayMs: settings.retryMaxMs },
          this.deps.random,
        );
    const status = result.ok ? 'delivered' : retryInMs === null ? 'dead' : 'pending';
    const recorded = await this.completions.record({
      id: delivery.id,
      lease_token: delivery.lease_token,
      status,
      status_code: result.statusCode,
      error: result.ok ? null : result.error,
      retry_in_ms: retryInMs,
    });
    // Lost the lease meanwhile: the dispatcher that owns the row now records (and counts) the outcome.
    if (!recorded) return;
    if (status === 'delivered') {
      metrics.deliveries.inc({ type: webhook.webhook_type, outcome: 'delivered' });
      metrics.latency.observe({ type: webhook.webhook_type }, Math.max(0, Date.now() - new Date(delivery.created_at).getTime()) / 1000);
      return;
    }
    metrics.deliveries.inc({ type: webhook.webhook_type, outcome: status === 'dead' ? 'dead' : 'retry' });
    logger.info(
      { delivery: delivery.id, webhook: webhook.id, attempt: delivery.attempts, error: result.error, retryInMs },
      status === 'dead' ? 'webhook delivery is dead' : 'webhook delivery failed, will retry',
    );
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
