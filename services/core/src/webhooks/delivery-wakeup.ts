import pg from 'pg';
import type { Logger } from '../logging/logger.js';

/** The channel migration 0012's trigger notifies when deliveries are queued (or a dead one is retried). */
export const DELIVERY_CHANNEL = 'reelstat_webhook_deliveries';

/**
 * LISTENs for queued deliveries on a connection of its own and calls `onWake` for each notification, so an
 * idle dispatcher reacts to a new event at once without polling often. When the connection drops it
 * reconnects with a growing delay (the dispatcher's poll covers the gap) and wakes the dispatcher once
 * connected again, in case something was queued meanwhile.
 */
export class DeliveryWakeup {
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 500;

  constructor(
    private readonly databaseUrl: string,
    private readonly onWake: () => void,
    private readonly logger: Logger,
  ) {}

  /** Resolves once listening, or after the first failure (the reconnect goes on in the background). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'reelstat-dispatcher-wakeup' });
    client.on('notification', () => this.onWake());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelayMs = 500;
    this.onWake();
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners('end');
    client.removeAllListeners('error');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopped || this.retryTimer !== undefined) return;
    this.logger.warn(
      { err: error.message, retryInMs: this.retryDelayMs },
      'webhook dispatcher: lost the wake-up connection, polling meanwhile',
    );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, this.retryDelayMs);
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, 30_000);
  }
}
