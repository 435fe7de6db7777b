import type { Database } from '../db/database.js';
import { enqueueWebhookEvents, type WebhookServer } from './webhook-events.js';

/** Consecutive failed polls before a media server counts as unreachable (one blip is not news). */
export const UNREACHABLE_AFTER_FAILURES = 3;

/**
 * Watches one media server's reachability from the activity monitor's polls. The state lives in
 * media_servers.unreachable_since and changes with a compare-and-set in the same transaction as the webhook
 * delivery, so "unreachable" and "back" are each announced once, even across a leader failover.
 */
export class ServerReachability {
  private failures = 0;
  /** null: not known yet in this process (read from the database on the next success). */
  private down: boolean | null = null;

  constructor(
    private readonly db: Database,
    private readonly server: WebhookServer,
  ) {}

  async failed(error: string, now: Date): Promise<void> {
    this.failures++;
    if (this.failures < UNREACHABLE_AFTER_FAILURES || this.down === true) return;
    await this.transition('down', now, error);
    this.down = true;
  }

  async succeeded(now: Date): Promise<void> {
    this.failures = 0;
    if (this.down === false) return;
    await this.transition('up', now, null);
    this.down = false;
  }

  private async transition(to: 'down' | 'up', now: Date, error: string | null): Promise<void> {
    await this.db.sequelize.transaction(async (transaction) => {
      const changed = await this.db.query(
        to === 'down'
          ? `UPDATE media_servers SET unreachable_since = $2 WHERE id = $1 AND unreachable_since IS NULL RETURNING id`
          : `UPDATE media_servers SET unreachable_since = NULL WHERE id = $1 AND unreachable_since IS NOT NULL AND $2::timestamptz IS NOT NULL RETURNING id`,
        [this.server.id, now.toISOString()],
        transaction,
      );
      if (changed.length === 0) return;
      await enqueueWebhookEvents(this.db, transaction, [
        {
          event: to === 'down' ? 'media_server_unreachable' : 'media_server_back',
          server: this.server,
          occurred_at: now.toISOString(),
          data: { error },
        },
      ]);
    });
  }
}
