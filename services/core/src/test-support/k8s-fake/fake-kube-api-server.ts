import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { KubeStatusError, ObjectStore, storagePrefix, type KubeObject, type StoredEvent } from './object-store.js';
import { jsonPatch, mergePatch, PatchError, type JsonPatchOperation } from './patch.js';
import { BUILTIN_TYPES, apiVersionOf, typeKey, typesFromCrd, type ResourceType } from './resource-types.js';
import { validateAndDefault } from './schema-validation.js';

export interface RequestLogEntry {
  /** Milliseconds since the epoch when the request arrived. */
  at: number;
  method: string;
  verb: 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'other';
  path: string;
  group: string;
  plural: string;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
  status: number;
  /** The stored object after a successful write (for tests that check who held a Lease when). */
  object?: KubeObject;
  userAgent: string | undefined;
}

export interface FakeKubeOptions {
  /** Bearer token every request must carry (401 otherwise). Random by default. */
  token?: string;
  /** How often watches that ask for bookmarks get one. */
  bookmarkIntervalMs?: number;
}

interface OpenWatch {
  response: ServerResponse;
  close(): void;
}

/**
 * A small Kubernetes API server with the semantics Reelstat's operator and Lease elector rely on:
 * resourceVersion conflicts (409), generation bumped by spec changes only, the status subresource,
 * finalizers and deletionTimestamp, watch streams (NDJSON) with bookmarks and 410 Gone after compaction,
 * CustomResourceDefinitions that register new kinds (with structural validation and defaults), and
 * 401 without the bearer token. Every request is logged in `requests` for tests to inspect.
 */
export class FakeKubeApiServer {
  readonly store = new ObjectStore();
  readonly requests: RequestLogEntry[] = [];
  readonly token: string;
  private readonly types = new Map<string, ResourceType>();
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly watches = new Set<OpenWatch>();
  private readonly bookmarkIntervalMs: number;
  private reachable = true;
  private port = 0;

  constructor(options: FakeKubeOptions = {}) {
    this.token = options.token ?? randomBytes(16).toString('hex');
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? 1000;
    for (const type of BUILTIN_TYPES) this.registerType(type);
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      if (!this.reachable) {
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : port;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const watch of [...this.watches]) watch.close();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A kubeconfig (YAML-compatible JSON) that points at this server with its token. */
  kubeconfig(namespace = 'default'): string {
    return JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      // Plain HTTP on loopback: client-node accepts http:// only with TLS verification off.
      clusters: [{ name: 'fake', cluster: { server: this.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'fake', user: { token: this.token } }],
      contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'fake', namespace } }],
      'current-context': 'fake',
    });
  }

  /** While false, connections are cut as they arrive and open ones are dropped: the API server is unreachable. */
  setReachable(reachable: boolean): void {
    this.reachable = reachable;
    if (!reachable) {
      for (const watch of [...this.watches]) watch.close();
      for (const socket of this.sockets) socket.destroy();
    }
  }

  /** Compacts the history and ends every open watch with a 410 Gone error event: informers must relist. */
  expireWatches(): void {
    this.store.compact();
    for (const watch of [...this.watches]) {
      writeEvent(watch.response, { type: 'ERROR', object: status(410, 'Expired', 'too old resource version') });
      watch.close();
    }
  }

  /** Registers the kinds of a CustomResourceDefinition directly (as `kubectl apply -f crds/` would). */
  applyCrd(crd: KubeObject): void {
    this.store.create(this.typeOf('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!, undefined, crd);
    for (const type of typesFromCrd(crd as never)) this.registerType(type);
  }

  /** Writes an object as an administrator would (kubectl create), bypassing HTTP. */
  create(apiVersion: string, plural: string, namespace: string | undefined, object: KubeObject): KubeObject {
    const type = this.typeFor(apiVersion, plural);
    return this.store.create(type, namespace, this.validated(type, object));
  }

  get(apiVersion: string, plural: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.store.get(this.typeFor(apiVersion, plural), namespace, name);
  }

  /** Reads, changes and writes back an object (retrying on conflicts as kubectl edit does). */
  edit(apiVersion: string, plural: string, namespace: string | undefined, name: string, change: (object: KubeObject) => void): KubeObject {
    const type = this.typeFor(apiVersion, plural);
    for (;;) {
      const current = this.store.get(type, namespace, name);
      if (!current) throw new KubeStatusError(404, 'NotFound', `${plural} "${name}" not found`);
      change(current);
      try {
        return this.store.update(type, namespace, name, this.validated(type, current));
      } catch (error) {
        if (!(error instanceof KubeStatusError && error.code === 409)) throw error;
      }
    }
  }

  delete(apiVersion: string, plural: string, namespace: string | undefined, name: string): KubeObject {
    return this.store.delete(this.typeFor(apiVersion, plural), namespace, name);
  }

  private typeFor(apiVersion: string, plural: string): ResourceType {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const type = this.typeOf(group!, version!, plural);
    if (!type) throw new Error(`the fake API server does not serve ${apiVersion} ${plural}`);
    return type;
  }

  private typeOf(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.get(typeKey(group, version, plural));
  }

  private registerType(type: ResourceType): void {
    this.types.set(typeKey(type.group, type.version, type.plural), type);
  }

  private validated(type: ResourceType, object: KubeObject): KubeObject {
    if (!object?.metadata?.name || typeof object.metadata.name !== 'string')
      throw new KubeStatusError(422, 'Invalid', 'metadata.name: Required value');
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(object.metadata.name) || object.metadata.name.length > 253)
      throw new KubeStatusError(
        422,
        'Invalid',
        `metadata.name: Invalid value: "${object.metadata.name}": must be a lowercase RFC 1123 subdomain`,
      );
    if (type.kind === 'Secret' && object.stringData && typeof object.stringData === 'object') {
      // As the API server does: stringData is write-only, merged into data (base64).
      const data = { ...((object.data as Record<string, string> | undefined) ?? {}) };
      for (const [key, value] of Object.entries(object.stringData as Record<string, string>))
        data[key] = Buffer.from(String(value)).toString('base64');
      object.data = data;
      delete object.stringData;
    }
    if (type.schema) {
      const problems = validateAndDefault(type.schema, object);
      if (problems.length)
        throw new KubeStatusError(
          422,
          'Invalid',
          `${type.kind}.${type.group} "${object.metadata.name}" is invalid: ${problems.join(', ')}`,
        );
    }
    return object;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const route = parsePath(url.pathname);
    const entry: RequestLogEntry = {
      at: Date.now(),
      method: request.method ?? 'GET',
      verb: 'other',
      path: url.pathname + url.search,
      group: route?.group ?? '',
      plural: route?.plural ?? '',
      namespace: route?.namespace,
      name: route?.name,
      subresource: route?.subresource,
      status: 0,
      userAgent: request.headers['user-agent'],
    };
    this.requests.push(entry);
    const reply = (code: number, body: unknown) => {
      entry.status = code;
      response.writeHead(code, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    try {
      if (request.headers.authorization !== `Bearer ${this.token}`) throw new KubeStatusError(401, 'Unauthorized', 'Unauthorized');
      if (url.pathname === '/version') return reply(200, { major: '1', minor: '31', gitVersion: 'v1.31.0-reelstat-fake' });
      const type = route && this.typeOf(route.group, route.version, route.plural);
      if (!route || !type) throw new KubeStatusError(404, 'NotFound', `the server could not find the requested resource (${url.pathname})`);
      if (type.namespaced !== Boolean(route.namespace) && (route.name || request.method !== 'GET'))
        throw new KubeStatusError(404, 'NotFound', `the server could not find the requested resource (${url.pathname})`);
      if (route.subresource && route.subresource !== 'status')
        throw new KubeStatusError(404, 'NotFound', `no subresource ${route.subresource}`);
      if (route.subresource === 'status' && !type.statusSubresource)
        throw new KubeStatusError(404, 'NotFound', `${type.plural} has no status subresource`);
      const namespace = route.namespace;
      const method = request.method ?? 'GET';
      if (method === 'GET' && !route.name) {
        if (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1') {
          entry.verb = 'watch';
          entry.status = 200;
          return this.watch(type, namespace, url.searchParams, response);
        }
        entry.verb = 'list';
        return reply(200, {
          apiVersion: apiVersionOf(type),
          kind: `${type.kind}List`,
          metadata: { resourceVersion: String(this.store.resourceVersion) },
          items: this.store.list(type, namespace),
        });
      }
      if (method === 'GET') {
        entry.verb = 'get';
        const object = this.store.get(type, namespace, route.name!);
        if (!object)
          throw new KubeStatusError(404, 'NotFound', `${type.plural}${type.group ? `.${type.group}` : ''} "${route.name}" not found`);
        return reply(200, object);
      }
      if (method === 'POST' && !route.name) {
        entry.verb = 'create';
        const body = (await readJson(request)) as KubeObject;
        if (body?.metadata && !body.metadata.name && typeof body.metadata.generateName === 'string')
          body.metadata.name = `${body.metadata.generateName}${randomBytes(3).toString('hex').slice(0, 5)}`;
        const created = this.store.create(type, namespace, this.validated(type, body));
        if (type.plural === 'customresourcedefinitions') for (const declared of typesFromCrd(created as never)) this.registerType(declared);
        entry.object = created;
        return reply(201, created);
      }
      if ((method === 'PUT' || method === 'PATCH') && route.name) {
        entry.verb = method === 'PUT' ? 'update' : 'patch';
        const body = await readJson(request);
        const current = this.store.get(type, namespace, route.name);
        if (!current) throw new KubeStatusError(404, 'NotFound', `${type.plural} "${route.name}" not found`);
        let next: KubeObject;
        if (method === 'PUT') next = body as KubeObject;
        else next = applyPatch(current, body, String(request.headers['content-type'] ?? ''));
        if (next?.metadata?.name !== undefined && next.metadata.name !== route.name)
          throw new KubeStatusError(400, 'BadRequest', 'the name of the object does not match the name on the URL');
        next.metadata = { ...next.metadata, name: route.name };
        const validated = route.subresource === 'status' ? next : this.validated(type, next);
        const updated = this.store.update(type, namespace, route.name, validated, route.subresource === 'status' ? 'status' : undefined);
        entry.object = updated;
        return reply(200, updated);
      }
      if (method === 'DELETE' && route.name) {
        entry.verb = 'delete';
        const deleted = this.store.delete(type, namespace, route.name);
        entry.object = deleted;
        return reply(200, deleted);
      }
      throw new KubeStatusError(405, 'MethodNotAllowed', `${method} is not supported here`);
    } catch (error) {
      if (error instanceof KubeStatusError) return reply(error.code, status(error.code, error.reason, error.message));
      if (error instanceof PatchError || error instanceof SyntaxError)
        return reply(400, status(400, 'BadRequest', (error as Error).message));
      return reply(500, status(500, 'InternalError', (error as Error).message));
    }
  }

  private watch(type: ResourceType, namespace: string | undefined, params: URLSearchParams, response: ServerResponse): void {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    response.flushHeaders();
    const from = params.get('resourceVersion');
    const prefix = storagePrefix(type, namespace);
    const matches = (event: StoredEvent) => event.storageKey.startsWith(prefix);
    const send = (event: StoredEvent) =>
      writeEvent(response, { type: event.type, object: { ...event.object, apiVersion: apiVersionOf(type) } });
    if (!from || from === '0') {
      // No starting point: the current objects as ADDED, then the changes.
      for (const object of this.store.list(type, namespace)) writeEvent(response, { type: 'ADDED', object });
    } else {
      const backlog = this.store.eventsSince(Number(from));
      if (!backlog) {
        writeEvent(response, {
          type: 'ERROR',
          object: status(410, 'Expired', `too old resource version: ${from} (${this.store.compactedRevision})`),
        });
        response.end();
        return;
      }
      for (const event of backlog) if (matches(event)) send(event);
    }
    const unsubscribe = this.store.subscribe((event) => {
      if (matches(event)) send(event);
    });
    const bookmarks =
      params.get('allowWatchBookmarks') === 'true'
        ? setInterval(
            () =>
              writeEvent(response, {
                type: 'BOOKMARK',
                object: {
                  apiVersion: apiVersionOf(type),
                  kind: type.kind,
                  metadata: { resourceVersion: String(this.store.resourceVersion) },
                },
              }),
            this.bookmarkIntervalMs,
          )
        : undefined;
    const timeoutSeconds = Number(params.get('timeoutSeconds') ?? 0);
    const timeout = timeoutSeconds > 0 ? setTimeout(() => watch.close(), timeoutSeconds * 1000) : undefined;
    const watch: OpenWatch = {
      response,
      close: () => {
        if (!this.watches.delete(watch)) return;
        unsubscribe();
        clearInterval(bookmarks);
        clearTimeout(timeout);
        response.end();
      },
    };
    this.watches.add(watch);
    response.on('close', () => watch.close());
  }
}

interface Route {
  group: string;
  version: string;
  plural: string;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
}

/** /api/v1/..., /apis/{group}/{version}/..., with or without namespaces/{ns}. */
function parsePath(pathname: string): Route | undefined {
  const all = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let group = '';
  let version: string | undefined;
  let parts: string[];
  if (all[0] === 'api') {
    version = all[1];
    parts = all.slice(2);
  } else if (all[0] === 'apis') {
    group = all[1] ?? '';
    version = all[2];
    parts = all.slice(3);
  } else return undefined;
  if (!version) return undefined;
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    namespace = parts[1];
    parts = parts.slice(2);
  }
  const [plural, name, subresource] = parts;
  if (!plural || parts.length > 3) return undefined;
  return { group, version, plural, namespace, name, subresource };
}

function applyPatch(current: KubeObject, body: unknown, contentType: string): KubeObject {
  if (contentType.startsWith('application/json-patch+json')) {
    if (!Array.isArray(body)) throw new PatchError('a JSON patch must be an array of operations');
    return jsonPatch(current, body as JsonPatchOperation[]) as KubeObject;
  }
  if (contentType.startsWith('application/merge-patch+json') || contentType.startsWith('application/strategic-merge-patch+json'))
    return mergePatch(current, body) as KubeObject;
  throw new KubeStatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format: ${contentType}`);
}

function status(code: number, reason: string, message: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

function writeEvent(response: ServerResponse, event: unknown): void {
  if (!response.writableEnded) response.write(`${JSON.stringify(event)}\n`);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) throw new KubeStatusError(400, 'BadRequest', 'the request has no body');
  return JSON.parse(text);
}
