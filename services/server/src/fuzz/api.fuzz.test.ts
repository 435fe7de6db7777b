// Property-based fuzzing of every operation of the OpenAPI document (fast-check): bodies and query strings
// built from the operation's own field names with values of every JSON type, hostile strings included (NUL,
// lone surrogates, huge numbers, deep nesting), path parameters filled the same way, sent with and without
// credentials. Every answer must come in
// time, be below 500, and every error must have the documented shape { status, code, message }.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, startApiHarness, type ApiHarness } from '../test-support/api-harness.js';

const CASES_PER_OPERATION = 100;
const REQUEST_TIMEOUT_MS = 10_000;
const PARALLEL_OPERATIONS = 4;

interface Operation {
  method: string;
  path: string;
  query: string[];
  bodyFields: string[] | undefined;
}

const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udc00', '🎬', '../../etc/passwd', "' OR 1=1 --", '%00', '<script>', ''),
  fc.string({ maxLength: 20 }),
  fc.constant('x'.repeat(5000)),
);
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2147483648, -1, 0, 1, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 0.5));
const leaf = fc.oneof(hostileString, number, fc.boolean(), fc.constant(null));
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
})).value;

/** A body shaped like the operation's (its field names, any values), or anything at all. */
function bodyOf(fields: string[] | undefined) {
  const shaped = fields?.length
    ? fc.record(Object.fromEntries(fields.map((field) => [field, fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), anyJson)])), {
        requiredKeys: [],
      })
    : fc.constant({});
  return fc.oneof({ arbitrary: shaped, weight: 4 }, { arbitrary: anyJson, weight: 1 });
}

/**
 * The operation's path with each {parameter} filled: numbers (column-range edges included: 2147483648 is past a
 * PostgreSQL integer), hostile strings and plain words, URL-encoded as a client would send them.
 */
function pathOf(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (names.length === 0) return fc.constant(path);
  const value = fc.oneof(number.map(String), hostileString, fc.constantFrom('1', 'abc', '2147483647', '9223372036854775808'));
  return fc
    .tuple(...names.map(() => value))
    .map((values) => names.reduce((filled, name, index) => filled.replace(`{${name}}`, encodePathValue(values[index]!)), path));
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) is sent as its WTF-8 bytes, as a sloppy client would. */
function encodePathValue(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? wtf8(part) : encodeURIComponent(part)))
      .join('');
  }
}

function wtf8(surrogate: string): string {
  const code = surrogate.charCodeAt(0);
  return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
    .map((byte) => `%${byte.toString(16).toUpperCase()}`)
    .join('');
}

function queryOf(names: string[]) {
  const value = fc.oneof(hostileString, number.map(String), fc.constantFrom('true', 'false', '[]', '{"a":1}'));
  return fc.dictionary(fc.oneof(fc.constantFrom(...(names.length ? names : ['q'])), hostileString), value, { maxKeys: 5 });
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      const operation = op as {
        parameters?: Array<{ name: string; in: string }>;
        requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
      };
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: schema ? Object.keys(schema.properties ?? {}) : undefined,
      });
    }
  }
  return operations;
}

function serialise(body: unknown): string {
  // JSON.stringify writes a lone surrogate as an escape (\ud800), which is how a client would send it.
  return JSON.stringify(body);
}

describe('fuzzing every OpenAPI operation', () => {
  let harness: ApiHarness;
  let token: string;
  let operations: Operation[];
  beforeAll(async () => {
    harness = await startApiHarness({ LOGIN_MAX_FAILURES: '1000' });
    token = await createAdmin(harness);
    operations = operationsOf((await harness.call('GET', '/api-docs', { token })).body as OpenApiDocument);
  });
  afterAll(async () => harness.stop());

  it('finds the operations of the document', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  it('answers every generated request in time, below 500, with the documented error shape', { timeout: 600_000 }, async () => {
    const failures: string[] = [];
    let requests = 0;
    const fuzz = async (operation: Operation) => {
      const withBody = operation.method !== 'GET';
      await fc
        .assert(
          fc.asyncProperty(
            pathOf(operation.path),
            bodyOf(operation.bodyFields),
            queryOf(operation.query),
            fc.boolean(),
            async (path, body, query, credentials) => {
              requests++;
              const search = new URLSearchParams(query as Record<string, string>).toString();
              const url = `${harness.url}${path}${search ? `?${search}` : ''}`;
              const what = `${operation.method} ${path}${search ? `?${search.slice(0, 200)}` : ''} ${withBody ? serialise(body).slice(0, 200) : ''}`;
              let res: Response;
              try {
                res = await fetch(url, {
                  method: operation.method,
                  headers: { 'content-type': 'application/json', ...(credentials ? { authorization: `Bearer ${token}` } : {}) },
                  body: withBody ? serialise(body) : undefined,
                  signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
                });
              } catch (error) {
                failures.push(`${what}: no answer (${(error as Error).message})`);
                return false;
              }
              const text = await res.text();
              if (res.status >= 500) {
                failures.push(`${what}: ${res.status} ${text.slice(0, 300)}`);
                return false;
              }
              if (res.status >= 400) {
                let parsed: { status?: unknown; code?: unknown; message?: unknown } = {};
                try {
                  parsed = JSON.parse(text) as typeof parsed;
                } catch {
                  // not JSON: reported below
                }
                if (parsed.status !== res.status || typeof parsed.code !== 'string' || typeof parsed.message !== 'string') {
                  failures.push(`${what}: ${res.status} without the error shape: ${text.slice(0, 300)}`);
                  return false;
                }
              }
              return true;
            },
          ),
          { numRuns: CASES_PER_OPERATION, endOnFailure: true, seed: 14 },
        )
        .catch(() => undefined);
    };
    // A few operations at a time: the server runs in this process, so requests overlap their waits.
    for (let i = 0; i < operations.length; i += PARALLEL_OPERATIONS) {
      await Promise.all(operations.slice(i, i + PARALLEL_OPERATIONS).map(fuzz));
    }
    console.info(`fuzz: ${operations.length} operations, ${requests} requests, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(operations.length * CASES_PER_OPERATION);
  });
});
