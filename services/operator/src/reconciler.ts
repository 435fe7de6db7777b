import { type CoreV1Api, type CustomObjectsApi, type V1Secret } from '@kubernetes/client-node';
import { MediaServerError, probeMediaServer, type Logger, type MediaServerLinks, type ProbeResult } from '@reelstat/core';
import { kubeStatusOf, withTimeout } from '@reelstat/core/kubernetes';
import { setCondition } from './conditions.js';
import {
  ARCHIVE_FINALIZER,
  MSS,
  MSS_API_VERSION,
  refOf,
  type Condition,
  type MediaStatsServer,
  type MediaStatsServerStatus,
} from './media-stats-server.js';

const REQUEST_TIMEOUT_MS = 10_000;

export interface ReconcilerDeps {
  custom: CustomObjectsApi;
  core: CoreV1Api;
  links: MediaServerLinks;
  /** The informer caches: what the controller last saw. */
  getResource(namespace: string, name: string): MediaStatsServer | undefined;
  getSecret(namespace: string, name: string): V1Secret | undefined;
  probe?: typeof probeMediaServer;
  /**
   * After the link is saved for a resource that had no server yet, or whose spec changed (URL, key reference,
   * libraries): the full sync that every way of linking starts, so libraries show without waiting.
   */
  onLinked?: (serverId: string) => Promise<void>;
  logger: Logger;
  /** Who writes Events (the pod name). */
  reportingInstance: string;
}

/** What the controller does with the key next: nothing, come back later (resync), or retry with backoff. */
export type Outcome = { kind: 'done' } | { kind: 'resync'; afterMs: number } | { kind: 'retry'; reason: string };

/** How often a Ready resource is looked at again, to refresh active sessions and last sync in its status. */
export const RESYNC_MS = 60_000;

class NotReady extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly reachable: Condition['status'],
  ) {
    super(message);
  }
}

/**
 * Level-triggered reconciliation of one MediaStatsServer: whatever happened before, bring Reelstat's link in
 * line with the resource as it is now and report the outcome in .status (and as Events on transitions).
 */
export class Reconciler {
  constructor(private readonly deps: ReconcilerDeps) {}

  async reconcile(key: string): Promise<Outcome> {
    const [namespace, name] = key.split('/') as [string, string];
    const resource = this.deps.getResource(namespace, name);
    if (!resource) return { kind: 'done' };
    if (resource.metadata?.deletionTimestamp) return this.finalize(resource);
    if (!resource.metadata?.finalizers?.includes(ARCHIVE_FINALIZER)) {
      // Add the finalizer first: the write brings the resource back through the queue.
      await this.deps.custom.replaceNamespacedCustomObject(
        {
          ...MSS,
          namespace,
          name,
          body: {
            ...resource,
            metadata: { ...resource.metadata, finalizers: [...(resource.metadata?.finalizers ?? []), ARCHIVE_FINALIZER] },
          },
        },
        withTimeout(REQUEST_TIMEOUT_MS),
      );
      return { kind: 'done' };
    }
    const generation = resource.metadata?.generation ?? 0;
    const status: MediaStatsServerStatus = { ...resource.status, observedGeneration: generation };
    let conditions = resource.status?.conditions ?? [];
    let outcome: Outcome;
    try {
      const apiKey = this.apiKeyOf(resource);
      const probe = await this.probe(resource, apiKey);
      const link = await this.deps.links.saveManaged(refOf(resource), {
        name: resource.spec.displayName ?? (probe.serverName || (probe.kind === 'emby' ? 'Emby' : 'Jellyfin')),
        kind: probe.kind,
        url: probe.url,
        apiKey,
        remoteServerId: probe.serverId,
        version: probe.version,
        externalUrl: resource.spec.externalUrl ?? null,
        suspended: resource.spec.suspend === true,
        settings: {
          trackedLibraries: resource.spec.trackedLibraries ?? null,
          untrackedLibraries: resource.spec.untrackedLibraries ?? null,
          activityMonitor: resource.spec.activityMonitor ?? null,
          sync: resource.spec.sync ?? null,
        },
      });
      const linkedAnew = resource.status?.serverId !== link.id || resource.status?.observedGeneration !== generation;
      if (linkedAnew && resource.spec.suspend !== true) await this.deps.onLinked?.(link.id);
      const activity = await this.deps.links.activity(link.id);
      Object.assign(status, {
        serverId: link.id,
        remoteServerId: probe.serverId,
        kind: probe.kind,
        version: probe.version,
        activeSessions: activity.activeSessions,
        ...(activity.lastSyncAt ? { lastSyncTime: activity.lastSyncAt.toISOString() } : {}),
      });
      conditions = setCondition(
        conditions,
        'Reachable',
        'True',
        'Probed',
        `${probe.productName} ${probe.version} answers at ${probe.url}`,
        generation,
      );
      conditions = setCondition(
        conditions,
        'Synced',
        'True',
        'LinkUpdated',
        `Reelstat's link ${link.id} matches generation ${generation}`,
        generation,
      );
      conditions = resource.spec.suspend
        ? setCondition(conditions, 'Ready', 'False', 'Suspended', 'suspend is true: monitoring and sync are stopped', generation)
        : setCondition(conditions, 'Ready', 'True', 'Linked', `Monitoring ${link.name} (${probe.kind} ${probe.version})`, generation);
      outcome = { kind: 'resync', afterMs: RESYNC_MS };
    } catch (error) {
      if (!(error instanceof NotReady)) throw error;
      conditions = setCondition(conditions, 'Reachable', error.reachable, error.reason, error.message, generation);
      conditions = setCondition(
        conditions,
        'Synced',
        'False',
        error.reason,
        'The link was not updated: the resource is not usable as it is',
        generation,
      );
      conditions = setCondition(conditions, 'Ready', 'False', error.reason, error.message, generation);
      outcome = { kind: 'retry', reason: error.reason };
    }
    status.conditions = conditions;
    await this.writeStatus(resource, status);
    return outcome;
  }

  private apiKeyOf(resource: MediaStatsServer): string {
    const namespace = resource.metadata!.namespace!;
    const { name, key = 'apiKey' } = resource.spec.apiKeySecretRef;
    const secret = this.deps.getSecret(namespace, name);
    if (!secret) throw new NotReady('SecretNotFound', `Secret ${namespace}/${name} does not exist`, 'Unknown');
    const encoded = secret.data?.[key];
    const value = encoded !== undefined ? Buffer.from(encoded, 'base64').toString('utf8') : secret.stringData?.[key];
    if (!value?.trim()) throw new NotReady('SecretKeyMissing', `Secret ${namespace}/${name} has no key "${key}"`, 'Unknown');
    return value.trim();
  }

  /** The same check as setup: reachable, key accepted with administrator rights, kind detected. */
  private async probe(resource: MediaStatsServer, apiKey: string): Promise<ProbeResult> {
    let probe: ProbeResult;
    try {
      probe = await (this.deps.probe ?? probeMediaServer)(resource.spec.url, apiKey);
    } catch (error) {
      if (!(error instanceof MediaServerError)) throw new NotReady('ProbeFailed', (error as Error).message, 'Unknown');
      switch (error.kind) {
        case 'unauthorized':
        case 'forbidden':
          throw new NotReady('Unauthorized', 'The media server rejected the API key', 'True');
        case 'not_found':
        case 'invalid_response':
          throw new NotReady('NotAMediaServer', `No Jellyfin or Emby server answers at ${resource.spec.url}`, 'False');
        case 'invalid_request':
          throw new NotReady('InvalidUrl', error.message, 'False');
        case 'network':
          throw new NotReady('Unreachable', `Could not reach ${resource.spec.url}: ${error.message}`, 'False');
        default:
          throw new NotReady('ServerError', `The media server answered with an error: ${error.message}`, 'True');
      }
    }
    const wanted = resource.spec.kind ?? 'auto';
    if (wanted !== 'auto' && wanted !== probe.kind)
      throw new NotReady('KindMismatch', `spec.kind is ${wanted} but the server at ${probe.url} is ${probe.kind}`, 'True');
    return probe;
  }

  /** Deletion: archive the link (history kept, monitoring stopped), then let the resource go. */
  private async finalize(resource: MediaStatsServer): Promise<Outcome> {
    if (!resource.metadata?.finalizers?.includes(ARCHIVE_FINALIZER)) return { kind: 'done' };
    const link = await this.deps.links.getManaged(refOf(resource));
    if (link) {
      await this.deps.links.archive(link.id);
      this.deps.logger.info(
        { resource: refOf(resource), server: link.id },
        'operator: archived the media-server link of a deleted resource',
      );
      await this.event(resource, 'Normal', 'Archived', `Archived Reelstat's link ${link.id}; its history is kept`);
    }
    await this.deps.custom.replaceNamespacedCustomObject(
      {
        ...MSS,
        namespace: resource.metadata.namespace!,
        name: resource.metadata.name!,
        body: {
          ...resource,
          metadata: { ...resource.metadata, finalizers: resource.metadata.finalizers.filter((f) => f !== ARCHIVE_FINALIZER) },
        },
      },
      withTimeout(REQUEST_TIMEOUT_MS),
    );
    return { kind: 'done' };
  }

  private async writeStatus(resource: MediaStatsServer, status: MediaStatsServerStatus): Promise<void> {
    if (stableJson(resource.status ?? {}) === stableJson(status)) return;
    await this.deps.custom.replaceNamespacedCustomObjectStatus(
      { ...MSS, namespace: resource.metadata!.namespace!, name: resource.metadata!.name!, body: { ...resource, status } },
      withTimeout(REQUEST_TIMEOUT_MS),
    );
    const before = resource.status?.conditions?.find((condition) => condition.type === 'Ready');
    const after = status.conditions?.find((condition) => condition.type === 'Ready');
    if (after && (before?.status !== after.status || before.reason !== after.reason))
      await this.event(
        resource,
        after.status === 'True' || after.reason === 'Suspended' ? 'Normal' : 'Warning',
        after.reason,
        after.message,
      );
  }

  /** A Kubernetes Event on the resource (kubectl describe shows it). Failing to write one never fails the reconcile. */
  private async event(resource: MediaStatsServer, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const namespace = resource.metadata!.namespace!;
    const now = new Date();
    try {
      await this.deps.core.createNamespacedEvent(
        {
          namespace,
          body: {
            metadata: { generateName: `${resource.metadata!.name}.`, namespace },
            involvedObject: {
              apiVersion: MSS_API_VERSION,
              kind: MSS.kind,
              name: resource.metadata!.name,
              namespace,
              uid: resource.metadata!.uid,
              resourceVersion: resource.metadata!.resourceVersion,
            },
            type,
            reason,
            message,
            firstTimestamp: now,
            lastTimestamp: now,
            count: 1,
            source: { component: 'reelstat-operator' },
            reportingComponent: 'reelstat.io/operator',
            reportingInstance: this.deps.reportingInstance,
          },
        },
        withTimeout(REQUEST_TIMEOUT_MS),
      );
    } catch (error) {
      this.deps.logger.warn({ err: (error as Error).message, status: kubeStatusOf(error) }, 'operator: could not write an Event');
    }
  }
}

/** JSON with sorted keys, so that equal statuses compare equal whatever order their fields were written in. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
