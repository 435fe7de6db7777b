/** Shared test helpers: OpenAPI validation against the real contracts, and small HTTP helpers. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from './index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Repo root is four levels up from services/jellyfin-sim/src/<file>. */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const CONTRACTS_DIR = process.env.REELSTAT_CONTRACTS_DIR ?? `${repoRoot}../shared/contracts`;
void here;

type Spec = { components: { schemas: Record<string, unknown> } };

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // Jellyfin declares GUIDs as format "uuid" but writes them as 32 hex digits without dashes.
  const guid = /^(?:[0-9a-f]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
  ajv.addFormat('uuid', guid);
  ajv.addFormat('guid', guid); // Emby's name for the same thing
  for (const f of ['int32', 'int64', 'float', 'double', 'text', 'binary']) ajv.addFormat(f, () => true);
  return ajv;
}

/** OpenAPI 3.0 `nullable: true` → JSON Schema (type list, or anyOf with null when there is no type). */
function openApiToJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApiToJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = openApiToJsonSchema(v);
  // Swashbuckle writes flag enums (TranscodeReasons) as `type: array` plus a string `enum` at the array level,
  // which no array can satisfy; the server sends an array of strings (contract §0.4), so the items rule stands.
  if (out.type === 'array' && Array.isArray(out.enum)) delete out.enum;
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    } else {
      const { description, deprecated, ...rest } = out;
      return { description, deprecated, anyOf: [rest, { type: 'null' }] };
    }
  } else if (out.nullable === false) delete out.nullable;
  return out;
}

const validators = new Map<string, { ajv: Ajv; cache: Map<string, ValidateFunction> }>();

function specValidator(flavor: 'jellyfin' | 'emby') {
  let v = validators.get(flavor);
  if (!v) {
    const file =
      flavor === 'jellyfin' ? `${CONTRACTS_DIR}/jellyfin/jellyfin-openapi-10.11.11.json` : `${CONTRACTS_DIR}/emby/emby-openapi-4.8.11.json`;
    const spec = JSON.parse(readFileSync(file, 'utf8')) as Spec;
    const ajv = makeAjv();
    ajv.addSchema({ $id: `${flavor}.json`, components: openApiToJsonSchema(spec.components) }, `${flavor}.json`);
    v = { ajv, cache: new Map() };
    validators.set(flavor, v);
  }
  return v;
}

/** Validates `value` against components/schemas/<name>, or an array of it when name ends with []. Returns error strings. */
export function validateSchema(flavor: 'jellyfin' | 'emby', name: string, value: unknown): string[] {
  const v = specValidator(flavor);
  let fn = v.cache.get(name);
  if (!fn) {
    const isArray = name.endsWith('[]');
    const base = isArray ? name.slice(0, -2) : name;
    const ref = { $ref: `${flavor}.json#/components/schemas/${base}` };
    fn = v.ajv.compile(isArray ? { type: 'array', items: ref } : ref);
    v.cache.set(name, fn);
  }
  if (fn(value)) return [];
  return (fn.errors ?? []).slice(0, 10).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Finds every null anywhere in a JSON value (nulls must be omitted on the wire). */
export function findNulls(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => findNulls(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => findNulls(v, `${path}.${k}`));
  return [];
}

export interface Answer<T = unknown> {
  status: number;
  contentType: string | null;
  text: string;
  json: T;
}

export class Client {
  constructor(
    readonly sim: RunningSimulator,
    readonly headers: Record<string, string> = { Authorization: `MediaBrowser Token="${sim.apiKey}"` },
    readonly prefix = '',
  ) {}

  async get<T = unknown>(path: string, headers?: Record<string, string>): Promise<Answer<T>> {
    return this.request<T>('GET', path, undefined, headers);
  }

  async post<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>> {
    return this.request<T>('POST', path, body, headers);
  }

  async request<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>> {
    const res = await fetch(this.sim.url + this.prefix + path, {
      method,
      headers: { ...(headers ?? this.headers), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json: unknown = undefined;
    if (res.headers.get('content-type')?.includes('application/json') && text) json = JSON.parse(text);
    return { status: res.status, contentType: res.headers.get('content-type'), text, json: json as T };
  }
}

export async function start(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({
    seed: 1,
    scale: 'tiny',
    apiKey: 'test-api-key-0123456789abcdef',
    clock: 'virtual',
    startTime: Date.UTC(2026, 5, 1, 12),
    ...opts,
  });
}

export const SECOND = 10_000_000;

export interface ItemsPage {
  Items: Record<string, unknown>[];
  TotalRecordCount: number;
  StartIndex?: number;
}
