import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';
import { generatedOpenApiText, OPENAPI_FILE } from '../../scripts/openapi.js';
import { openApiPath } from './openapi-document.js';

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown; parameters: Array<{ name: string }> }>>;
}

/** Mounted on purpose but outside the API document: probes and metrics, and the dashboard's pages (when built). */
const NOT_API = new Set(['GET /healthz', 'GET /readyz', 'GET /metrics', 'GET /', 'GET <regexp>']);

interface Layer {
  route?: { path: string | RegExp; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  slash?: boolean;
}

/** "METHOD /path" of every route in an Express app, nested routers included (all mounted at "/" here). */
function mountedRoutes(app: unknown): string[] {
  const walk = (stack: Layer[]): string[] =>
    stack.flatMap((layer) => {
      if (layer.route) {
        const path = typeof layer.route.path === 'string' ? openApiPath(layer.route.path) : '<regexp>';
        return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
      }
      const nested = layer.handle?.stack;
      if (!nested) return [];
      // Without BASE_URL every router is mounted at the root, so route paths are the request paths.
      if (!layer.slash) throw new Error('a router mounted below the root: prefix its routes before comparing');
      return walk(nested);
    });
  return walk((app as { router: { stack: Layer[] } }).router.stack);
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

  it('documents exactly the routes Express mounted, and nothing else', async () => {
    const answer = await harness.call('GET', '/api-docs', { token });
    expect(answer.status).toBe(200);
    const document = answer.body as Document;
    // Every route of the whole app (probes, the api role's routers, the dashboard), found by walking the
    // app's router stack as Express dispatches it, not by reading the list the document is built from.
    const mounted = mountedRoutes(harness.app.httpApp);
    expect(mounted).toEqual(expect.arrayContaining(['GET /healthz', 'GET /readyz', 'GET /metrics']));
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(mounted.length).toBeGreaterThan(40);
    expect(documented).toEqual([...new Set(mounted.filter((route) => !NOT_API.has(route)))].sort());
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
    // 403: a viewer naming another server; 404: a serverId no media server has.
    expect(Object.keys(history.responses).sort()).toEqual(['200', '400', '401', '403', '404']);
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
