import { z, type ZodType } from 'zod';
import { VERSION } from '@reelstat/core';
import { errorAnswer, serverIdParameter } from '@reelstat/contract';
import { route, type AnyRoute } from '../http/api-routes.js';
import { SIGNED_IN_ACCESS, type Access } from '../http/route-access.js';

/**
 * The OpenAPI 3.1 document, generated from the route definitions and their zod schemas, so it cannot drift
 * from what the server validates. docs/openapi.json is a committed copy (`npm run openapi`); a test fails
 * when it is stale or when a mounted route is missing from it.
 */
type JsonSchema = Record<string, unknown>;

function schemaOf(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** Express `/a/:id` → OpenAPI `/a/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function queryParameters(schema: ZodType | undefined, where: 'query' | 'path') {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: schemaOf(errorAnswer, 'output') } },
});

/** A server-scoped call's body documents `serverId` too (it may come in the query or the body). */
function bodySchema(definition: AnyRoute): JsonSchema {
  const json = schemaOf(definition.body!, 'input');
  if (!definition.servers || json.type !== 'object') return json;
  const serverId = (schemaOf(serverIdParameter, 'input').properties as Record<string, JsonSchema>).serverId!;
  const described =
    definition.servers === 'all' ? serverId : { ...serverId, description: `${String(serverId.description)}; "all" is refused here` };
  return { ...json, properties: { ...(json.properties as Record<string, JsonSchema>), serverId: described } };
}

function serverParameters(definition: AnyRoute) {
  if (!definition.servers) return [];
  return queryParameters(serverIdParameter, 'query').map((parameter) =>
    definition.servers === 'all'
      ? { ...parameter, description: `${parameter.description}; "all": every linked server` }
      : { ...parameter, description: `${parameter.description}; "all" is refused here` },
  );
}

/** When a viewer (docs/security.md, "Roles") is refused, per declared access. */
const VIEWER_REFUSED: Partial<Record<Access, string>> = {
  admin: 'Administrators only: a viewer is refused',
  'own-user': 'A viewer naming another user (or another server) is refused',
  'signed-in': 'A viewer naming another server is refused',
  'server-stats': "A viewer is refused unless the administrator shares the server's statistics (VIEWERS_SEE_SERVER_STATS)",
  'own-plays':
    "A viewer gets their own plays only (everyone's figures only when VIEWERS_SEE_SERVER_STATS is on); another server is refused",
};

function refusedViewer(definition: AnyRoute): string | undefined {
  return definition.access === 'signed-in' && !definition.servers ? undefined : VIEWER_REFUSED[definition.access];
}

export function buildOpenApiDocument(definitions: readonly AnyRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const definition of definitions) {
    const path = openApiPath(definition.path);
    const operation: Record<string, unknown> = {
      operationId: `${definition.method}${definition.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`,
      summary: definition.summary,
      tags: [definition.tag],
      ...(SIGNED_IN_ACCESS.has(definition.access) ? {} : { security: [] }),
      parameters: [
        ...queryParameters(definition.query, 'query'),
        ...serverParameters(definition),
        ...queryParameters(definition.params, 'path'),
      ],
      ...(definition.body ? { requestBody: { required: true, content: { 'application/json': { schema: bodySchema(definition) } } } } : {}),
      responses: {
        [String(definition.status ?? 200)]: definition.response
          ? { description: 'Success', content: { 'application/json': { schema: schemaOf(definition.response, 'output') } } }
          : definition.produces
            ? { description: 'Success: a file', content: { [definition.produces]: { schema: { type: 'string', format: 'binary' } } } }
            : { description: 'Success' },
        ...(definition.body || definition.query || definition.params || definition.servers
          ? { 400: errorResponse('Bad input: what was wrong, per field') }
          : {}),
        ...(SIGNED_IN_ACCESS.has(definition.access) ? { 401: errorResponse('No valid login token or API key') } : {}),
        ...(refusedViewer(definition) ? { 403: errorResponse(refusedViewer(definition)!) } : {}),
        ...(definition.servers ? { 404: errorResponse('No media server has the serverId given (code media_server_not_found)') } : {}),
      },
    };
    paths[path] = { ...paths[path], [definition.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reelstat API',
      version: VERSION,
      description:
        'Statistics and monitoring for Jellyfin and Emby. Paths may be prefixed by the configured BASE_URL. Authenticate with ' +
        '`Authorization: Bearer <token>` (POST /auth/login) or an API key in `x-api-token`.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-token' },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** GET /api-docs: the document of every route mounted next to it (it lists itself too). */
export function apiDocsRoute(definitions: () => readonly AnyRoute[]) {
  let cached: ReturnType<typeof buildOpenApiDocument> | undefined;
  return route({
    method: 'get',
    path: '/api-docs',
    tag: 'meta',
    summary: 'This OpenAPI 3.1 document (JSON)',
    access: 'admin',
    handle: async () => {
      cached ??= buildOpenApiDocument(definitions());
      return cached;
    },
  });
}
