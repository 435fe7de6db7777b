import type { KubernetesObject } from '@kubernetes/client-node';

/** Names fixed with the Helm chart (crds/mediastatsservers.reelstat.io.yaml). */
export const MSS = { group: 'reelstat.io', version: 'v1alpha1', plural: 'mediastatsservers', kind: 'MediaStatsServer' } as const;
export const MSS_API_VERSION = `${MSS.group}/${MSS.version}`;
/** Keeps a deleted resource until its link is archived. */
export const ARCHIVE_FINALIZER = 'reelstat.io/archive-link';

export type ConditionType = 'Ready' | 'Reachable' | 'Synced';
export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  type: ConditionType;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export interface MediaStatsServerSpec {
  url: string;
  kind?: 'auto' | 'jellyfin' | 'emby';
  apiKeySecretRef: { name: string; key?: string };
  displayName?: string;
  externalUrl?: string;
  trackedLibraries?: string[];
  untrackedLibraries?: string[];
  activityMonitor?: { activeIntervalSeconds?: number; idleIntervalSeconds?: number };
  sync?: { recentIntervalMinutes?: number; fullIntervalMinutes?: number };
  suspend?: boolean;
}

export interface MediaStatsServerStatus {
  observedGeneration?: number;
  serverId?: string;
  remoteServerId?: string;
  kind?: 'jellyfin' | 'emby';
  version?: string;
  lastSyncTime?: string;
  activeSessions?: number;
  conditions?: Condition[];
}

export interface MediaStatsServer extends KubernetesObject {
  spec: MediaStatsServerSpec;
  status?: MediaStatsServerStatus;
}

export function refOf(object: KubernetesObject): string {
  return `${object.metadata?.namespace}/${object.metadata?.name}`;
}
