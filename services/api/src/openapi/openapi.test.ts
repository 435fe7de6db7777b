import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';
import { generatedOpenApiText, OPENAPI_FILE } from '../../scripts/openapi.js';
import { openApiPath } from './openapi-document.js';
import { findApiRole } from '../roles/api-role.js';

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown; parameters: Array<{ name: string }> }>>;
}

describe('OpenAPI document', () => {
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    harness = await startApiHarness();
    token = await createAdmin(harness);
  });
  afterAll(async () => {
    await harness.stop();
  });

  it('documents exactly the routes mounted on the router', async () => {
    const answer = await harness.call('GET', '/api-docs', { token });
    expect(answer.status).toBe(200);
    const document = answer.body as Document;
    const stack = (
      findApiRole(harness.app.roles)!.routes!.router as unknown as {
        stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }>;
      }
    ).stack;
    const mounted = stack
      .flatMap((layer) =>
        layer.route ? Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${openApiPath(layer.route!.path)}`) : [],
      )
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(mounted.length).toBeGreaterThan(40);
    expect(documented).toEqual([...new Set(mounted)]);
  });

  it('describes bodies, query parameters and answers from the zod schemas', async () => {
    const document = (await harness.call('GET', '/api-docs', { token })).body as Document;
    const history = document.paths['/api/getHistory']!.get!;
    expect(history.parameters.map((parameter) => parameter.name).sort()).toEqual([
      'desc',
      'filters',
      'page',
      'search',
      'serverId',
      'size',
      'sort',
    ]);
    // 404: a serverId no media server has.
    expect(Object.keys(history.responses).sort()).toEqual(['200', '400', '401', '404']);
    const cards = document.paths['/stats/getMostViewedByType']!.post!;
    expect(cards.requestBody).toMatchObject({
      content: { 'application/json': { schema: { properties: { type: { enum: ['Movie', 'Series', 'Audio'] } } } } },
    });
  });

  it('needs credentials', async () => {
    expect((await harness.call('GET', '/api-docs')).status).toBe(401);
  });

  it('is committed up to date in docs/openapi.json (npm run openapi)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(generatedOpenApiText());
  });
});
