// The per-field audit of the contract: every input a request can carry (path, query, JSON body) has bounds, as
// the OpenAPI document (generated from the zod contract, kept up to date by openapi.test.ts) states them:
// strings a maximum length, an enum, or an anchored pattern without open-ended repetition; numbers a minimum and a
// maximum; arrays a maximum size. Unbounded input is how a request reaches PostgreSQL's limits (integer out of
// range, huge strings) and turns into a 5xx instead of a 400.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from '../../scripts/openapi.js';

interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Operation {
  parameters?: Array<{ name: string; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** An anchored pattern whose every repetition has an upper bound (no *, +, or {n,}). */
const boundedPattern = (pattern: string) => pattern.startsWith('^') && pattern.endsWith('$') && !/(?<!\\)[*+]|\{\d+,\}/.test(pattern);

function unboundedFields(document: Document): string[] {
  const found: string[] = [];
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? resolve(document.components!.schemas![schema.$ref.split('/').at(-1)!]!) : schema;
  const walk = (given: Schema, where: string) => {
    const schema = resolve(given);
    for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(part, where);
    if (schema.enum || schema.const !== undefined) return;
    if (schema.type === 'string' && schema.maxLength === undefined && !(schema.pattern && boundedPattern(schema.pattern)))
      found.push(`${where}: string without a maximum length`);
    if (schema.type === 'integer' || schema.type === 'number') {
      if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) found.push(`${where}: number without a minimum`);
      if (schema.maximum === undefined && schema.exclusiveMaximum === undefined) found.push(`${where}: number without a maximum`);
    }
    if (schema.type === 'array') {
      if (schema.maxItems === undefined) found.push(`${where}: array without a maximum size`);
      if (schema.items) walk(schema.items, `${where}[]`);
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${name}`);
    if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${where}.*`);
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) walk(parameter.schema ?? {}, `${method.toUpperCase()} ${path} ${parameter.name}`);
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) walk(body, `${method.toUpperCase()} ${path} body`);
    }
  }
  return found;
}

describe('contract audit: bounded inputs', () => {
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document;

  it('bounds every string, number and array a request can carry', () => {
    expect(unboundedFields(document)).toEqual([]);
  });

  it('finds an unbounded field (the audit can fail)', () => {
    const probe: Document = {
      paths: {
        '/x': {
          post: {
            parameters: [{ name: 'id', schema: { type: 'integer', minimum: 1 } }],
            requestBody: {
              content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', pattern: '^a+$' } } } } },
            },
          },
        },
      },
    };
    expect(unboundedFields(probe)).toEqual(['POST /x id: number without a maximum', 'POST /x body.name: string without a maximum length']);
  });
});
