export type LeadershipListener = (isLeader: boolean) => void;

/**
 * Exactly one process of a group leads (the scheduler that polls sessions and fires schedules).
 * Implementations: AlwaysLeader (single process, embedded database), PostgresAdvisoryLeader (any shared
 * PostgreSQL), and a Kubernetes Lease one for clusters.
 */
export interface LeaderElector {
  readonly kind: 'always' | 'postgres-advisory-lock' | 'kubernetes-lease';
  readonly isLeader: boolean;
  start(): Promise<void>;
  /** Gives leadership up (if held) so another process can take over at once. */
  stop(): Promise<void>;
  onChange(listener: LeadershipListener): () => void;
}

export class AlwaysLeader implements LeaderElector {
  readonly kind = 'always' as const;
  private leading = false;
  private readonly listeners = new Set<LeadershipListener>();

  get isLeader(): boolean {
    return this.leading;
  }

  async start(): Promise<void> {
    this.leading = true;
    for (const listener of this.listeners) listener(true);
  }

  async stop(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    for (const listener of this.listeners) listener(false);
  }

  onChange(listener: LeadershipListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
