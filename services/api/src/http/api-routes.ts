import { Router, type Request, type Response } from 'express';
import { findUnstorableText } from './text-input.js';
import type { z, ZodType } from 'zod';
import { AppError, type MediaUserRef, type Principal, type Runtime } from '@reelstat/core';
import { ALL_SERVERS, serverSelector } from '@reelstat/contract';
import { checkAccess, checkOwnUser, viewerServerId, type Access } from './route-access.js';

export type { Access } from './route-access.js';
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface RouteContext<Body, Query, Params> {
  body: Body;
  query: Query;
  params: Params;
  /**
   * The media server the call acts on, from `serverId` in the query or the body, checked to exist: undefined
   * means the default server; 'all' only on routes declared with `servers: 'all'`.
   */
  serverId: string | undefined;
  principal: Principal | undefined;
  /**
   * Set when the caller is a viewer (undefined for administrators): the media-server user whose statistics are
   * theirs (undefined when their sign-in is linked to no media-server user). Routes declared 'signed-in' answer
   * a viewer about this user only.
   */
  viewer: { mediaUser: MediaUserRef | undefined } | undefined;
  req: Request;
  res: Response;
  runtime: Runtime;
}

export interface RouteDefinition<Body = unknown, Query = unknown, Params = unknown, Result = unknown> {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  /** Who may call it, checked by ApiRoutes before the handler runs (see http/route-access.ts). */
  access: Access;
  /**
   * For access 'own-user': the media-server user id the call is about, from the parsed input. A viewer may
   * name only their own; anything else is a 403.
   */
  userOf?: (input: { body: Body; query: Query; params: Params }) => string | undefined;
  body?: ZodType<Body>;
  query?: ZodType<Query>;
  params?: ZodType<Params>;
  /** The answer's schema: documents the contract (OpenAPI) and is checked in tests. */
  response?: ZodType<Result>;
  /** A route that streams a file itself (no JSON answer): its media type, for the OpenAPI document. */
  produces?: 'text/csv' | 'image/png';
  /**
   * Whether the call acts on one media server (optional `serverId`, the default server when absent) or also
   * accepts `serverId=all` (every linked server summed or listed). Absent: the call is not server-scoped.
   */
  servers?: 'one' | 'all';
  /** Status of a successful answer (default 200). */
  status?: number;
  handle(context: RouteContext<Body, Query, Params>): Promise<Result>;
}

/** Any route definition, for lists of routes with different schemas. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous list; each definition is typed where declared
export type AnyRoute = RouteDefinition<any, any, any, any>;

/** Declares a route with its schemas. Keeps the generic types of body/query/params tied to the handler. */
export function route<Body = undefined, Query = undefined, Params = undefined, Result = unknown>(
  definition: RouteDefinition<Body, Query, Params, Result>,
): RouteDefinition<Body, Query, Params, Result> {
  return definition;
}

/** Formats zod issues as "where: what" lines, e.g. "body.username: expected string". */
export function describeIssues(where: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => `${[where, ...issue.path].join('.')}: ${issue.message}`);
}

function parse<T>(schema: ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const unstorable = findUnstorableText(value, where);
  if (unstorable) {
    const problem = `${unstorable}: must not contain a NUL character or an unpaired surrogate`;
    throw AppError.badRequest(`Invalid request: ${problem}`, { problems: [problem] });
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = describeIssues(where, result.error);
    throw AppError.badRequest(`Invalid request: ${problems.join('; ')}`, { problems });
  }
  return result.data;
}

/**
 * Reads `serverId` from the query (first) or the JSON body and checks it: a malformed value or `all` where the
 * call does not take it is a 400, an id no server has is a 404, both in the API's error shape.
 */
async function resolveServerId(
  definition: AnyRoute,
  req: Request,
  runtime: Runtime,
  principal: Principal | undefined,
): Promise<string | undefined> {
  if (!definition.servers) return undefined;
  const body = req.body as unknown;
  const raw = req.query.serverId ?? (typeof body === 'object' && body !== null ? (body as Record<string, unknown>).serverId : undefined);
  // A viewer's calls are about the media server their account is on, whatever the default server is.
  if (principal?.role === 'viewer') return viewerServerId(principal, raw);
  if (raw === undefined || raw === null || raw === '') return undefined;
  const where = req.query.serverId === undefined ? 'body' : 'query';
  const parsed = serverSelector.safeParse(raw);
  if (!parsed.success) {
    const problems = describeIssues(`${where}.serverId`, parsed.error);
    throw AppError.badRequest(`Invalid request: ${problems.join('; ')}`, { problems });
  }
  if (parsed.data === ALL_SERVERS) {
    if (definition.servers === 'all') return ALL_SERVERS;
    const problem = `${where}.serverId: "all" is not accepted by this call; name one media server`;
    throw AppError.badRequest(`Invalid request: ${problem}`, { problems: [problem] });
  }
  const id = parsed.data.toLowerCase();
  if (!(await runtime.services.mediaServers.exists(id))) {
    throw new AppError(404, 'media_server_not_found', `No media server has the Id ${id} (GET /api/mediaServers lists them)`);
  }
  return id;
}

/**
 * Mounts route definitions on an Express router: check access (401 without credentials, 403 for a role the
 * route does not admit), parse and validate (400 with what was wrong), check a viewer's scope, call the
 * handler, send JSON. Keeps every definition for the OpenAPI document and the route tests.
 */
export class ApiRoutes {
  readonly router = Router();
  readonly definitions: AnyRoute[] = [];

  constructor(private readonly runtime: Runtime) {}

  add(...definitions: AnyRoute[]): this {
    for (const definition of definitions) this.mount(definition);
    return this;
  }

  private mount(definition: AnyRoute) {
    this.definitions.push(definition);
    this.router[definition.method](definition.path, async (req, res, next) => {
      try {
        const principal = req.principal;
        await checkAccess(definition, principal, this.runtime);
        const body = parse(definition.body, req.body ?? {}, 'body');
        const query = parse(definition.query, req.query, 'query');
        const params = parse(definition.params, req.params, 'params');
        const serverId = await resolveServerId(definition, req, this.runtime, principal);
        const viewer = principal?.role === 'viewer' ? { mediaUser: principal.mediaUser } : undefined;
        if (viewer && definition.access === 'own-user') checkOwnUser(definition.userOf?.({ body, query, params }), viewer.mediaUser);
        const result = await definition.handle({ body, query, params, serverId, principal, viewer, req, res, runtime: this.runtime });
        if (res.headersSent) return;
        res.status(definition.status ?? 200);
        if (result === undefined) res.end();
        else res.json(result);
      } catch (error) {
        next(error);
      }
    });
  }
}
