import pg from 'pg';
import type { LeaderElector, LeadershipListener } from './leader-elector.js';
import type { Logger } from '../logging/logger.js';

/** First half of every Reelstat advisory-lock key, so our locks never collide with another application's. */
const LOCK_NAMESPACE = 0x52_53_54; // "RST"

/**
 * Leadership through a session-level PostgreSQL advisory lock held on a dedicated connection.
 * When the leader dies its connection closes and PostgreSQL frees the lock; a follower retries every
 * `renewMs` and takes over. The leader checks its connection at the same rate and steps down the moment the
 * connection (and so the lock) is gone, before anyone else can have taken it for long.
 */
export class PostgresAdvisoryLeader implements LeaderElector {
  readonly kind = 'postgres-advisory-lock' as const;
  private client: pg.Client | undefined;
  private leading = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private ticking: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<LeadershipListener>();
  private readonly lockKey: number;

  constructor(
    private readonly options: { databaseUrl: string; group: string; renewMs: number; instanceId: string },
    private readonly logger: Logger,
  ) {
    this.lockKey = hash32(options.group);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.tick();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    // Stop leading before the lock is released, so a follower can never lead while this process still does.
    this.setLeading(false);
    if (this.client) {
      // Closing the session releases the lock immediately.
      await this.client.end().catch(() => undefined);
      this.client = undefined;
    }
  }

  onChange(listener: LeadershipListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => this.schedule());
    }, this.options.renewMs);
  }

  private async tick(): Promise<void> {
    try {
      const client = await this.connection();
      if (this.leading) {
        // Still our session? Then we still hold the lock.
        await client.query('SELECT 1');
        return;
      }
      const result = await client.query<{ acquired: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS acquired', [
        LOCK_NAMESPACE,
        this.lockKey,
      ]);
      if (result.rows[0]?.acquired && !this.stopped) this.setLeading(true);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, group: this.options.group }, 'leader election: lost the database connection');
      this.dropConnection();
      this.setLeading(false);
    }
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: `reelstat-leader-${this.options.group}`,
      keepAlive: true,
      connectionTimeoutMillis: Math.max(1000, this.options.renewMs * 2),
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error.message }, 'leader election connection error');
      this.dropConnection();
      this.setLeading(false);
    });
    await client.connect();
    this.client = client;
    return client;
  }

  private dropConnection() {
    const client = this.client;
    this.client = undefined;
    client?.end().catch(() => undefined);
  }

  private setLeading(leading: boolean) {
    if (this.leading === leading) return;
    this.leading = leading;
    this.logger.info({ group: this.options.group, instance: this.options.instanceId }, leading ? 'became leader' : 'no longer leader');
    for (const listener of this.listeners) listener(leading);
  }
}

/** FNV-1a, folded to a signed 32-bit integer (advisory lock keys are int4 pairs). */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
