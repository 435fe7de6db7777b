import { CoordinationV1Api, Watch, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import type { LeaderElector, LeadershipListener } from './leader-elector.js';
import type { Logger } from '../logging/logger.js';
import { kubeStatusOf, withTimeout } from '../kubernetes/kube-config.js';

export interface LeaseTimings {
  /** How long a Lease stays valid after its last renewal (followers wait this long). */
  durationMs: number;
  /** A leader that could not renew for this long stops leading, before the Lease can expire for others. */
  renewDeadlineMs: number;
  /** Renew (leader) and acquire (follower) attempts, this often. */
  retryMs: number;
}

/**
 * Leadership through a `coordination.k8s.io/v1` Lease named after the group, as client-go's leader election
 * does (client-node has none). Followers judge expiry by their own clock from when they last saw the Lease
 * change, never by comparing clocks with the holder. The leader stops leading the moment it has gone
 * `renewDeadlineMs` without a successful renewal, which is shorter than the Lease duration: when a follower
 * may take over, the old leader has already stopped. On stop the Lease is released so failover is immediate.
 *
 * Unlike client-go, a follower also watches the Lease, so it sees each renewal as it is written rather than at
 * its next read (up to a retry period later), and it tries again the moment the Lease expires: after a crash
 * the follower takes over one Lease duration after the holder's last renewal, not up to two retry periods more.
 */
export class KubernetesLeaseLeader implements LeaderElector {
  readonly kind = 'kubernetes-lease' as const;
  private readonly api: CoordinationV1Api;
  private leading = false;
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private observed: { record: string; at: number } | undefined;
  /** When the Lease another holder has expires by our clock (undefined while we hold it or nobody does). */
  private foreignExpiry: number | undefined;
  private readonly listeners = new Set<LeadershipListener>();
  private watching: AbortController | undefined;
  private rewatch: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: { kubeConfig: KubeConfig; namespace: string; group: string; identity: string; timings: LeaseTimings },
    private readonly logger: Logger,
  ) {
    this.api = options.kubeConfig.makeApiClient(CoordinationV1Api);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  private get leaseName(): string {
    return `reelstat-${this.options.group}`;
  }

  async start(): Promise<void> {
    this.stopped = false;
    void this.watchLease();
    this.ticking = this.tick();
    await this.ticking;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.rewatch);
    this.watching?.abort();
    await this.ticking;
    const wasLeading = this.leading;
    this.setLeading(false);
    if (wasLeading) await this.release();
  }

  onChange(listener: LeadershipListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The next attempt in `retryMs`, or sooner when a follower knows the holder's Lease expires before then: it
   * tries the moment the Lease expires instead of up to a retry period later (failover after a crash is the
   * Lease duration from the follower's last sight of a renewal, not that plus a retry period).
   */
  private schedule(): void {
    if (this.stopped) return;
    const untilExpiry = this.foreignExpiry === undefined ? Infinity : Math.max(0, this.foreignExpiry - Date.now());
    this.timer = setTimeout(
      () => {
        this.ticking = this.tick().finally(() => this.schedule());
      },
      Math.min(this.options.timings.retryMs, untilExpiry),
    );
  }

  private async tick(): Promise<void> {
    try {
      const renewed = await this.tryAcquireOrRenew();
      if (this.stopped) return;
      if (renewed) {
        this.armDeadline();
        this.setLeading(true);
      } else if (this.leading) {
        // Someone else holds the Lease (we lost a race or our record was overwritten): stop at once.
        this.stepDown('another holder has the Lease');
      }
    } catch (error) {
      // A failed renewal alone does not end leadership: the renew deadline does (see armDeadline).
      this.logger.warn({ err: (error as Error).message, group: this.options.group }, 'leader election: could not reach the Lease');
    }
  }

  /**
   * Notes every write of the Lease as it happens (see the class comment). A watch that ends or fails is opened
   * again a retry period later; meanwhile the reads of every attempt still observe the Lease.
   */
  private async watchLease(): Promise<void> {
    if (this.stopped) return;
    const again = () => {
      this.watching = undefined;
      // One pending reopen at most, however many times the old watch reports its end.
      clearTimeout(this.rewatch);
      if (!this.stopped) this.rewatch = setTimeout(() => void this.watchLease(), this.options.timings.retryMs);
    };
    try {
      this.watching = await new Watch(this.options.kubeConfig).watch(
        `/apis/coordination.k8s.io/v1/namespaces/${this.options.namespace}/leases`,
        { fieldSelector: `metadata.name=${this.leaseName}`, timeoutSeconds: 300 },
        (phase, lease: V1Lease) => {
          if ((phase === 'ADDED' || phase === 'MODIFIED') && lease.metadata?.name === this.leaseName) this.observe(lease);
        },
        () => again(),
      );
      if (this.stopped) this.watching.abort();
    } catch {
      again();
    }
  }

  /** Remembers when we first saw this version of the Lease: its expiry counts from then. */
  private observe(lease: V1Lease): { record: string; at: number } {
    const record = JSON.stringify([lease.spec?.holderIdentity ?? '', lease.metadata?.resourceVersion]);
    if (this.observed?.record !== record) this.observed = { record, at: Date.now() };
    return this.observed;
  }

  /** Leadership ends by itself `renewDeadlineMs` after the last successful renewal unless renewed again. */
  private armDeadline(): void {
    clearTimeout(this.deadline);
    this.deadline = setTimeout(() => this.stepDown('renew deadline passed'), this.options.timings.renewDeadlineMs);
  }

  private stepDown(reason: string): void {
    if (!this.leading) return;
    this.logger.warn({ group: this.options.group, reason }, 'leader election: stepping down');
    this.setLeading(false);
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, identity, timings } = this.options;
    const requestOptions = withTimeout(Math.max(100, Math.min(timings.retryMs, timings.renewDeadlineMs / 2)));
    const now = new Date();
    // Reset first: a failed read must not leave an old expiry that would make the next attempts back-to-back.
    this.foreignExpiry = undefined;
    let lease: V1Lease;
    try {
      lease = await this.api.readNamespacedLease({ name: this.leaseName, namespace }, requestOptions);
    } catch (error) {
      if (kubeStatusOf(error) !== 404) throw error;
      try {
        await this.api.createNamespacedLease(
          {
            namespace,
            body: {
              metadata: { name: this.leaseName, namespace },
              spec: {
                holderIdentity: identity,
                leaseDurationSeconds: Math.ceil(timings.durationMs / 1000),
                acquireTime: now,
                renewTime: now,
                leaseTransitions: 0,
              },
            },
          },
          requestOptions,
        );
        return true;
      } catch (createError) {
        if (kubeStatusOf(createError) === 409) return false;
        throw createError;
      }
    }
    const spec = lease.spec ?? {};
    const observed = this.observe(lease);
    const holder = spec.holderIdentity ?? '';
    const mine = holder === identity;
    // The holder's own duration decides, as it wrote it; ours is only the fallback.
    const durationMs = (spec.leaseDurationSeconds ?? timings.durationMs / 1000) * 1000;
    if (!mine && holder !== '' && Date.now() < observed.at + durationMs) {
      this.foreignExpiry = observed.at + durationMs;
      return false;
    }
    try {
      await this.api.replaceNamespacedLease(
        {
          name: this.leaseName,
          namespace,
          body: {
            ...lease,
            spec: {
              ...spec,
              holderIdentity: identity,
              leaseDurationSeconds: Math.ceil(timings.durationMs / 1000),
              acquireTime: mine && spec.acquireTime ? spec.acquireTime : now,
              renewTime: now,
              leaseTransitions: (spec.leaseTransitions ?? 0) + (mine ? 0 : 1),
            },
          },
        },
        requestOptions,
      );
      return true;
    } catch (error) {
      // 409: someone else wrote the Lease since we read it; they won this round.
      if (kubeStatusOf(error) === 409) return false;
      throw error;
    }
  }

  /** Hands the Lease back (empty holder) so a follower can take it at its next try instead of after expiry. */
  private async release(): Promise<void> {
    const { namespace, identity, timings } = this.options;
    try {
      const lease = await this.api.readNamespacedLease({ name: this.leaseName, namespace }, withTimeout(timings.retryMs));
      if (lease.spec?.holderIdentity !== identity) return;
      await this.api.replaceNamespacedLease(
        {
          name: this.leaseName,
          namespace,
          body: { ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: new Date() } },
        },
        withTimeout(timings.retryMs),
      );
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, group: this.options.group }, 'leader election: could not release the Lease');
    }
  }

  private setLeading(leading: boolean): void {
    if (!leading) clearTimeout(this.deadline);
    if (leading === this.leading) return;
    this.leading = leading;
    for (const listener of this.listeners) listener(leading);
  }
}
