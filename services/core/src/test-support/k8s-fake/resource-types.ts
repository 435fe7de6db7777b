import type { ValidationRule } from './cel-rules.js';
/** A kind of object the fake API server serves, as the real server knows it from its discovery documents. */
export interface ResourceType {
  /** '' for the core group (/api/v1). */
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  /** Custom resources with `subresources.status`: the main endpoint ignores .status, /status changes only it. */
  statusSubresource: boolean;
  /** The openAPIV3Schema of a custom resource: requests are validated against it and its defaults applied. */
  schema?: JsonSchema;
}

export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  format?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** Built-in kinds the operator and the Lease elector use. */
export const BUILTIN_TYPES: ResourceType[] = [
  { group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true, statusSubresource: false },
  { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true, statusSubresource: false },
  { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true, statusSubresource: false },
  { group: 'events.k8s.io', version: 'v1', plural: 'events', kind: 'Event', namespaced: true, statusSubresource: false },
  { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true, statusSubresource: false },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    statusSubresource: false,
  },
];

export function apiVersionOf(type: ResourceType): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

export function typeKey(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}

interface CrdVersion {
  name: string;
  served?: boolean;
  subresources?: { status?: unknown };
  schema?: { openAPIV3Schema?: JsonSchema };
}

/** The resource types a CustomResourceDefinition object declares (one per served version). */
export function typesFromCrd(crd: {
  spec: { group: string; scope: string; names: { plural: string; kind: string }; versions: CrdVersion[] };
}): ResourceType[] {
  return crd.spec.versions
    .filter((version) => version.served !== false)
    .map((version) => ({
      group: crd.spec.group,
      version: version.name,
      plural: crd.spec.names.plural,
      kind: crd.spec.names.kind,
      namespaced: crd.spec.scope === 'Namespaced',
      statusSubresource: Boolean(version.subresources?.status),
      ...(version.schema?.openAPIV3Schema ? { schema: version.schema.openAPIV3Schema } : {}),
    }));
}
