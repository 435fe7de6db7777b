import {
  CoreV1Api,
  CustomObjectsApi,
  makeInformer,
  type Informer,
  type KubeConfig,
  type ObjectCache,
  type V1Secret,
} from '@kubernetes/client-node';
import type { Logger, MediaServerLinks } from '@reelstat/core';
import { MSS, refOf, type MediaStatsServer } from './media-stats-server.js';
import { Reconciler, type ReconcilerDeps } from './reconciler.js';
import { WorkQueue } from './work-queue.js';

/** After an informer error (its watch and list both failed), try again this long later. */
const INFORMER_RESTART_MS = 2000;

export interface ControllerOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  links: MediaServerLinks;
  logger: Logger;
  identity: string;
  probe?: ReconcilerDeps['probe'];
  /** Called when a resource links a server for the first time or its spec changed (starts a full sync). */
  onLinked?: ReconcilerDeps['onLinked'];
  backoff?: { baseMs: number; maxMs: number };
  /** Checked before each reconcile: leadership can end between two keys. */
  isLeading(): boolean;
}

/**
 * Watches MediaStatsServers and Secrets in one namespace with informers (list, then watch; relist on 410)
 * and reconciles each resource key through a work queue. A Secret change requeues the resources that refer
 * to it, so a new API key takes effect without a restart. Runs only while this process leads.
 */
export class MediaStatsServerController {
  private readonly queue: WorkQueue;
  private readonly resources: Informer<MediaStatsServer> & ObjectCache<MediaStatsServer>;
  private readonly secrets: Informer<V1Secret> & ObjectCache<V1Secret>;
  private readonly reconciler: Reconciler;
  private worker: Promise<void> | undefined;
  /** Reconciles done by this controller (tests use it to show that only the leader works). */
  reconciles = 0;
  private stopped = false;
  private readonly restarts = new Set<NodeJS.Timeout>();

  constructor(private readonly options: ControllerOptions) {
    const { kubeConfig, namespace } = options;
    const custom = kubeConfig.makeApiClient(CustomObjectsApi);
    const core = kubeConfig.makeApiClient(CoreV1Api);
    this.queue = new WorkQueue(options.backoff);
    this.resources = makeInformer<MediaStatsServer>(
      kubeConfig,
      `/apis/${MSS.group}/${MSS.version}/namespaces/${namespace}/${MSS.plural}`,
      () => custom.listNamespacedCustomObject({ ...MSS, namespace }) as never,
    );
    this.secrets = makeInformer<V1Secret>(kubeConfig, `/api/v1/namespaces/${namespace}/secrets`, () =>
      core.listNamespacedSecret({ namespace }),
    );
    this.reconciler = new Reconciler({
      custom,
      core,
      links: options.links,
      logger: options.logger,
      reportingInstance: options.identity,
      getResource: (ns, name) => this.resources.get(name, ns),
      getSecret: (ns, name) => this.secrets.get(name, ns),
      ...(options.probe ? { probe: options.probe } : {}),
      ...(options.onLinked ? { onLinked: options.onLinked } : {}),
    });
    const enqueue = (resource: MediaStatsServer) => this.queue.add(refOf(resource));
    this.resources.on('add', enqueue);
    this.resources.on('update', enqueue);
    this.resources.on('delete', enqueue);
    const secretChanged = (secret: V1Secret) => {
      for (const resource of this.resources.list(namespace))
        if (resource.spec?.apiKeySecretRef?.name === secret.metadata?.name) this.queue.add(refOf(resource));
    };
    this.secrets.on('add', secretChanged);
    this.secrets.on('update', secretChanged);
    this.secrets.on('delete', secretChanged);
    for (const [name, informer] of [
      ['mediastatsservers', this.resources],
      ['secrets', this.secrets],
    ] as const) {
      // client-node's informer stops after an error it cannot resume from (410 it handles itself): restart it.
      informer.on('error', (error: unknown) => {
        if (this.stopped) return;
        options.logger.warn({ err: (error as Error)?.message, informer: name }, 'operator: watch failed; restarting');
        const timer = setTimeout(() => {
          this.restarts.delete(timer);
          if (!this.stopped) void informer.start().catch(() => undefined);
        }, INFORMER_RESTART_MS);
        this.restarts.add(timer);
      });
    }
  }

  async start(): Promise<void> {
    // Secrets first, so the first reconciles find the keys in the cache.
    await this.secrets.start();
    await this.resources.start();
    this.worker = this.work();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.restarts) clearTimeout(timer);
    this.queue.close();
    await this.resources.stop();
    await this.secrets.stop();
    await this.worker;
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.next();
      if (key === undefined) return;
      if (!this.options.isLeading()) {
        this.queue.done(key);
        return;
      }
      try {
        this.reconciles++;
        const outcome = await this.reconciler.reconcile(key);
        if (outcome.kind === 'retry') {
          const delay = this.queue.retryLater(key);
          this.options.logger.info({ resource: key, reason: outcome.reason, retryInMs: delay }, 'operator: resource not ready');
        } else {
          this.queue.forget(key);
          if (outcome.kind === 'resync') this.queue.addAfter(key, outcome.afterMs);
        }
      } catch (error) {
        const delay = this.queue.retryLater(key);
        this.options.logger.warn({ err: (error as Error).message, resource: key, retryInMs: delay }, 'operator: reconcile failed');
      } finally {
        this.queue.done(key);
      }
    }
  }
}
