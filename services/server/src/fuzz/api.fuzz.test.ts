// Property-based fuzzing of every operation of the OpenAPI document (fast-check): bodies and query strings
// built from the operation's own field names with values of every JSON type, hostile strings included (NUL,
// lone surrogates, huge numbers, deep nesting), sent with and without credentials. Every answer must come in
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
          fc.asyncProperty(bodyOf(operation.bodyFields), queryOf(operation.query), fc.boolean(), async (body, query, credentials) => {
            requests++;
            const search = new URLSearchParams(query as Record<string, string>).toString();
            const url = `${harness.url}${operation.path}${search ? `?${search}` : ''}`;
            const what = `${operation.method} ${operation.path}${search ? `?${search.slice(0, 200)}` : ''} ${withBody ? serialise(body).slice(0, 200) : ''}`;
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
          }),
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
