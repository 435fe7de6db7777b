// Validates rendered objects against the Kubernetes OpenAPI schemas shipped by kubernetes-models (and its
// packages for the Prometheus Operator and Gateway API resources the chart can create).
import type { KubeObject } from './helm.js';

const modelPackages: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'policy/v1': 'kubernetes-models/policy/v1',
  'rbac.authorization.k8s.io/v1': 'kubernetes-models/rbac.authorization.k8s.io/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'apiextensions.k8s.io/v1': 'kubernetes-models/apiextensions.k8s.io/v1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
  'gateway.networking.k8s.io/v1': '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1',
  'kustomize.toolkit.fluxcd.io/v1': '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1',
  'helm.toolkit.fluxcd.io/v2': '@kubernetes-models/flux-cd/helm.toolkit.fluxcd.io/v2',
  'source.toolkit.fluxcd.io/v1': '@kubernetes-models/flux-cd/source.toolkit.fluxcd.io/v1',
  'argoproj.io/v1alpha1': '@kubernetes-models/argo-cd/argoproj.io/v1alpha1',
};

interface Model {
  validate(): void;
}

/** Throws with the schema's message when the object is not valid, or when no schema is known for its kind. */
export async function validateKubeObject(object: KubeObject): Promise<void> {
  const base = modelPackages[object.apiVersion];
  if (!base) throw new Error(`no schema known for ${object.apiVersion} ${object.kind} ${object.metadata?.name}`);
  const module = (await import(`${base}/${object.kind}`)) as Record<string, new (data: unknown) => Model>;
  const ModelClass = module[object.kind];
  if (!ModelClass) throw new Error(`no model ${object.kind} in ${base}`);
  try {
    new ModelClass(object).validate();
  } catch (error) {
    throw new Error(`${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
  }
}
