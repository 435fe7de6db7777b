import path from 'node:path';
import type { AppConfig } from '../config/load-config.js';
import type { Logger } from '../logging/logger.js';
import { openDatabase, waitForDatabase, type Database } from '../db/database.js';
import { EmbeddedPostgres } from '../db/embedded-postgres.js';
import { migrateToLatest } from '../db/migrate.js';
import { buildDeferredIndexes } from '../backup/deferred-indexes.js';
import type { JobQueue } from '../queue/job-queue.js';
import { InProcessQueue } from '../queue/in-process-queue.js';
import { BullMqQueue } from '../queue/bullmq-queue.js';
import type { EventBus } from '../bus/event-bus.js';
import { InProcessBus } from '../bus/in-process-bus.js';
import { RedisBus } from '../bus/redis-bus.js';
import { AlwaysLeader, type LeaderElector } from '../leader/leader-elector.js';
import { PostgresAdvisoryLeader } from '../leader/postgres-advisory-leader.js';
import type { KubernetesAccess } from '../kubernetes/kube-config.js';
import { findKubernetesCredentials } from '../kubernetes/kube-credentials.js';
import { Metrics } from '../metrics/metrics.js';
import { createServices, type Services } from './services.js';

/**
 * Everything a role needs, built once per process from the configuration. The same interfaces serve the
 * single-node install (embedded PostgreSQL, in-process queue and bus) and a cluster (external PostgreSQL,
 * BullMQ and Redis pub/sub).
 */
export class Runtime {
  db!: Database;
  queue!: JobQueue;
  bus!: EventBus;
  services!: Services;
  readonly metrics: Metrics;
  private embedded: EmbeddedPostgres | undefined;
  migrated = false;
  private readonly closers: Array<() => Promise<void>> = [];
  private kubernetesAccess: KubernetesAccess | undefined;

  constructor(
    readonly config: AppConfig,
    readonly logger: Logger,
  ) {
    this.metrics = new Metrics();
  }

  get mode(): 'single-node' | 'cluster' {
    return this.config.redisUrl ? 'cluster' : 'single-node';
  }

  /** Starts or connects to PostgreSQL and opens the queue and bus. Does not migrate. */
  async connect(): Promise<void> {
    let databaseUrl = this.config.databaseUrl;
    if (!databaseUrl) {
      this.embedded = new EmbeddedPostgres(
        path.join(this.config.dataDir, 'postgres'),
        this.logger.child({ component: 'embedded-postgres' }),
        { onRestart: () => this.metrics.embeddedPostgresRestarts.inc(), sharedBuffers: this.config.embeddedPostgresSharedBuffers },
      );
      const started = Date.now();
      databaseUrl = await this.embedded.start();
      this.logger.info(
        { port: this.embedded.port, sharedBuffers: this.embedded.sharedBuffers, ms: Date.now() - started },
        'embedded PostgreSQL started',
      );
    }
    this.db = openDatabase(databaseUrl, this.logger, {
      poolMax: this.config.databasePoolMax,
      applicationName: `reelstat-${this.config.roles.join('+')}`,
    });
    await waitForDatabase(this.db, this.logger);
    if (this.config.redisUrl) {
      this.queue = new BullMqQueue(this.config.redisUrl, this.logger.child({ component: 'queue' }), this.config.redisKeyPrefix);
      this.bus = new RedisBus(this.config.redisUrl, this.logger.child({ component: 'bus' }), this.config.redisKeyPrefix);
    } else {
      this.queue = new InProcessQueue(this.logger.child({ component: 'queue' }));
      this.bus = new InProcessBus();
    }
    this.services = createServices(this.config, this.db, this.logger, this.bus);
  }

  async migrate(): Promise<void> {
    await migrateToLatest(this.db, this.logger);
    this.migrated = true;
    // Indexes a restore left to build after its swap, if the process building them was stopped: in the
    // background (CREATE INDEX CONCURRENTLY; the data is usable meanwhile), one builder in the cluster.
    buildDeferredIndexes(this.db.url).then(
      (built) => {
        if (built) this.logger.info({ built }, 'deferred indexes built');
      },
      (error: unknown) => this.logger.warn({ err: error }, 'building deferred indexes failed; the next start tries again'),
    );
  }

  /**
   * Credentials and namespace for the Kubernetes API (loaded on first use: only the operator and Lease election
   * need it). The Kubernetes client is imported only once credentials are known to exist: without them this
   * throws before loading it, so a process outside Kubernetes never pays its memory.
   */
  async kubernetes(): Promise<KubernetesAccess> {
    if (!this.kubernetesAccess) {
      findKubernetesCredentials(this.config);
      const { loadKubernetesAccess } = await import('../kubernetes/index.js');
      this.kubernetesAccess = loadKubernetesAccess(this.config);
    }
    return this.kubernetesAccess;
  }

  /** Which election this process uses: a Lease in a pod (or when asked), none for one embedded process, else PostgreSQL. */
  get leaderElectionKind(): LeaderElector['kind'] {
    const { leaderElection } = this.config;
    if (leaderElection === 'lease' || (leaderElection === 'auto' && this.config.kubernetes.inCluster)) return 'kubernetes-lease';
    if (leaderElection === 'none' || (leaderElection === 'auto' && this.config.embeddedDatabase)) return 'always';
    return 'postgres-advisory-lock';
  }

  /** A leader elector for a group of processes ('scheduler', 'operator'). */
  async createLeaderElector(group: string): Promise<LeaderElector> {
    const logger = this.logger.child({ component: 'leader', group });
    let elector: LeaderElector;
    switch (this.leaderElectionKind) {
      case 'kubernetes-lease': {
        const access = await this.kubernetes();
        const { KubernetesLeaseLeader } = await import('../kubernetes/index.js');
        elector = new KubernetesLeaseLeader(
          {
            ...access,
            group,
            identity: this.config.kubernetes.podName ?? this.config.instanceId,
            timings: this.config.leaderLease,
          },
          logger,
        );
        break;
      }
      case 'always':
        elector = new AlwaysLeader();
        break;
      default:
        elector = new PostgresAdvisoryLeader(
          { databaseUrl: this.db.url, group, renewMs: this.config.leaderLockRenewMs, instanceId: this.config.instanceId },
          logger,
        );
    }
    elector.onChange((leading) => this.metrics.leaderStatus.set({ group }, leading ? 1 : 0));
    this.metrics.leaderStatus.set({ group }, 0);
    return elector;
  }

  /** Registers cleanup that must run at shutdown, before the database closes. */
  onClose(closer: () => Promise<void>): void {
    this.closers.push(closer);
  }

  async close(): Promise<void> {
    for (const closer of this.closers.reverse()) {
      await closer().catch((error: unknown) => this.logger.error({ err: error }, 'error during shutdown'));
    }
    await this.services?.close();
    await this.queue?.close().catch((error: unknown) => this.logger.error({ err: error }, 'error closing the queue'));
    await this.bus?.close().catch((error: unknown) => this.logger.error({ err: error }, 'error closing the bus'));
    await this.db?.close().catch((error: unknown) => this.logger.error({ err: error }, 'error closing the database'));
    if (this.embedded) {
      await this.embedded.stop();
      this.logger.info('embedded PostgreSQL stopped');
    }
  }

  get embeddedPostgresPid(): number | undefined {
    return this.embedded?.pid;
  }
}
