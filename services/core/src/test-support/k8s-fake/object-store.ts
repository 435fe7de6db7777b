import { randomUUID } from 'node:crypto';
import { apiVersionOf, type ResourceType } from './resource-types.js';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    finalizers?: string[];
    labels?: Record<string, string>;
    [key: string]: unknown;
  };
  spec?: unknown;
  status?: unknown;
  [key: string]: unknown;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredEvent {
  resourceVersion: number;
  type: WatchEventType;
  storageKey: string;
  object: KubeObject;
}

/** A Kubernetes-style failure: the HTTP code plus the Status reason (Conflict, NotFound, Invalid...). */
export class KubeStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

type Listener = (event: StoredEvent) => void;

/**
 * The fake API server's etcd: one global resourceVersion counter, objects per resource type, and the event
 * history that watches resume from. `compact()` drops the history, as etcd compaction does, so a watch that
 * resumes from an older resourceVersion gets 410 Gone and must relist.
 */
export class ObjectStore {
  private revision = 0;
  private compactedAt = 0;
  private readonly objects = new Map<string, KubeObject>();
  private history: StoredEvent[] = [];
  private readonly listeners = new Set<Listener>();

  get resourceVersion(): number {
    return this.revision;
  }

  get compactedRevision(): number {
    return this.compactedAt;
  }

  list(type: ResourceType, namespace: string | undefined): KubeObject[] {
    const prefix = storagePrefix(type, namespace);
    return [...this.objects.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([, object]) => structuredClone(object))
      .sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`));
  }

  get(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    const object = this.objects.get(objectKey(type, namespace, name));
    return object ? structuredClone(object) : undefined;
  }

  create(type: ResourceType, namespace: string | undefined, input: KubeObject): KubeObject {
    const key = objectKey(type, namespace, input.metadata.name);
    if (this.objects.has(key)) throw new KubeStatusError(409, 'AlreadyExists', `${type.plural} "${input.metadata.name}" already exists`);
    const object: KubeObject = structuredClone(input);
    object.apiVersion = apiVersionOf(type);
    object.kind = type.kind;
    if (type.statusSubresource) delete object.status;
    const { deletionTimestamp: _ignored, ...metadata } = object.metadata;
    object.metadata = {
      ...metadata,
      ...(type.namespaced ? { namespace } : {}),
      uid: randomUUID(),
      creationTimestamp: new Date().toISOString(),
      generation: 1,
    };
    return this.write(key, type, object, 'ADDED');
  }

  /**
   * Replaces an object (PUT). A resourceVersion in the body must match the stored one (optimistic
   * concurrency: 409 otherwise). `subresource` 'status' changes only .status; the main endpoint of a kind with
   * a status subresource keeps the stored .status. generation grows only when the spec (anything outside
   * metadata and status) changes.
   */
  update(type: ResourceType, namespace: string | undefined, name: string, input: KubeObject, subresource?: 'status'): KubeObject {
    const key = objectKey(type, namespace, name);
    const current = this.objects.get(key);
    if (!current) throw new KubeStatusError(404, 'NotFound', `${type.plural} "${name}" not found`);
    const expected = input.metadata?.resourceVersion;
    if (expected !== undefined && expected !== '' && expected !== current.metadata.resourceVersion) {
      throw new KubeStatusError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${type.plural} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    }
    let next: KubeObject;
    if (subresource === 'status') {
      next = { ...structuredClone(current), status: structuredClone(input.status) };
    } else {
      next = structuredClone(input);
      if (type.statusSubresource) next.status = structuredClone(current.status);
      const { uid, creationTimestamp, deletionTimestamp, generation } = current.metadata;
      const finalizers = input.metadata.finalizers ?? [];
      if (deletionTimestamp) {
        const added = finalizers.filter((finalizer) => !(current.metadata.finalizers ?? []).includes(finalizer));
        if (added.length)
          throw new KubeStatusError(
            422,
            'Invalid',
            `metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted`,
          );
      }
      next.metadata = {
        ...next.metadata,
        name,
        ...(type.namespaced ? { namespace } : {}),
        uid,
        creationTimestamp,
        generation,
        ...(deletionTimestamp ? { deletionTimestamp } : {}),
        finalizers,
      };
      if (!finalizers.length) delete next.metadata.finalizers;
    }
    next.apiVersion = apiVersionOf(type);
    next.kind = type.kind;
    if (JSON.stringify(specOf(next)) !== JSON.stringify(specOf(current))) next.metadata.generation = (current.metadata.generation ?? 1) + 1;
    if (sameContent(next, current)) return structuredClone(current);
    // The last finalizer removed from an object being deleted: the object goes.
    if (next.metadata.deletionTimestamp && !next.metadata.finalizers?.length) {
      this.objects.delete(key);
      return this.record(key, type, { ...next, metadata: { ...next.metadata, resourceVersion: String(++this.revision) } }, 'DELETED');
    }
    return this.write(key, type, next, 'MODIFIED');
  }

  /** DELETE: with finalizers the object only gets a deletionTimestamp; without, it is gone. */
  delete(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const key = objectKey(type, namespace, name);
    const current = this.objects.get(key);
    if (!current) throw new KubeStatusError(404, 'NotFound', `${type.plural} "${name}" not found`);
    if (current.metadata.finalizers?.length) {
      if (current.metadata.deletionTimestamp) return structuredClone(current);
      return this.write(
        key,
        type,
        { ...structuredClone(current), metadata: { ...current.metadata, deletionTimestamp: new Date().toISOString() } },
        'MODIFIED',
      );
    }
    this.objects.delete(key);
    return this.record(
      key,
      type,
      { ...structuredClone(current), metadata: { ...current.metadata, resourceVersion: String(++this.revision) } },
      'DELETED',
    );
  }

  /** Events after `resourceVersion`, or undefined when compaction has dropped some of them (410 Gone). */
  eventsSince(resourceVersion: number): StoredEvent[] | undefined {
    if (resourceVersion < this.compactedAt) return undefined;
    return this.history.filter((event) => event.resourceVersion > resourceVersion);
  }

  /** Forgets the event history up to now, as etcd compaction does. */
  compact(): void {
    this.compactedAt = this.revision;
    this.history = [];
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private write(key: string, type: ResourceType, object: KubeObject, eventType: WatchEventType): KubeObject {
    object.metadata.resourceVersion = String(++this.revision);
    this.objects.set(key, object);
    return this.record(key, type, object, eventType);
  }

  private record(key: string, type: ResourceType, object: KubeObject, eventType: WatchEventType): KubeObject {
    const event: StoredEvent = {
      resourceVersion: Number(object.metadata.resourceVersion),
      type: eventType,
      storageKey: key,
      object: structuredClone(object),
    };
    this.history.push(event);
    for (const listener of this.listeners) listener(event);
    return structuredClone(object);
  }
}

export function storagePrefix(type: ResourceType, namespace: string | undefined): string {
  return `${type.group}/${type.plural}/${namespace ? `${namespace}/` : ''}`;
}

function objectKey(type: ResourceType, namespace: string | undefined, name: string): string {
  return `${type.group}/${type.plural}/${type.namespaced ? `${namespace}/` : ''}${name}`;
}

function specOf(object: KubeObject): unknown {
  const { metadata: _metadata, status: _status, apiVersion: _apiVersion, kind: _kind, ...rest } = object;
  return rest;
}

function sameContent(a: KubeObject, b: KubeObject): boolean {
  const strip = (object: KubeObject) => ({ ...object, metadata: { ...object.metadata, resourceVersion: undefined } });
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}
