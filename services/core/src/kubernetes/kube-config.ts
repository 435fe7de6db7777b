import { existsSync, readFileSync } from 'node:fs';
import { KubeConfig, Observable, type ConfigurationOptions, type RequestContext, type ResponseContext } from '@kubernetes/client-node';
import type { AppConfig } from '../config/load-config.js';
import { findKubernetesCredentials } from './kube-credentials.js';

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

export interface KubernetesAccess {
  kubeConfig: KubeConfig;
  /** Where Leases live and which MediaStatsServers the operator watches. */
  namespace: string;
}

/**
 * Credentials and namespace for the Kubernetes API: inside a pod its service account, outside the
 * kubeconfig (KUBECONFIG, else ~/.kube/config). The namespace is POD_NAMESPACE, else the context's, else the
 * pod's own, else "default".
 */
export function loadKubernetesAccess(config: AppConfig): KubernetesAccess {
  const kubeConfig = new KubeConfig();
  const credentials = findKubernetesCredentials(config);
  if (credentials.kind === 'file') kubeConfig.loadFromFile(credentials.path);
  else kubeConfig.loadFromCluster();
  const context = kubeConfig.getContextObject(kubeConfig.getCurrentContext());
  const podNamespace =
    config.kubernetes.inCluster && existsSync(SERVICE_ACCOUNT_NAMESPACE)
      ? readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim()
      : undefined;
  return { kubeConfig, namespace: config.kubernetes.namespace ?? context?.namespace ?? podNamespace ?? 'default' };
}

/** Request options that abort a Kubernetes API call after `ms` (client-node has no timeout of its own). */
export function withTimeout(ms: number): ConfigurationOptions {
  return {
    middleware: [
      {
        pre: (context: RequestContext) => {
          context.setSignal(AbortSignal.timeout(ms));
          return new Observable(Promise.resolve(context));
        },
        post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}

/** The HTTP status of a failed client-node call (ApiException.code), or undefined for network errors. */
export function kubeStatusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}
