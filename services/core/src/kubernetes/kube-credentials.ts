import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { AppConfig } from '../config/load-config.js';

/** Where the Kubernetes credentials come from: a kubeconfig file, or the pod's service account. */
export type KubernetesCredentials = { kind: 'file'; path: string } | { kind: 'cluster' };

/**
 * Finds the Kubernetes credentials without loading the Kubernetes client (about 75 MB of resident memory, which a
 * process outside Kubernetes never needs): KUBECONFIG, else the pod's service account, else ~/.kube/config.
 * Throws when there are none.
 */
export function findKubernetesCredentials(config: AppConfig): KubernetesCredentials {
  const { inCluster, kubeconfigPath } = config.kubernetes;
  if (kubeconfigPath) return { kind: 'file', path: kubeconfigPath };
  if (inCluster) return { kind: 'cluster' };
  const fallback = path.join(homedir(), '.kube', 'config');
  if (!existsSync(fallback)) throw new Error(`no Kubernetes credentials: set KUBECONFIG or create ${fallback}`);
  return { kind: 'file', path: fallback };
}
