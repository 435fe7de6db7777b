import { Router, type Request, type Response } from 'express';
import { findUnstorableText } from './text-input.js';
import type { z, ZodType } from 'zod';
import { AppError, type AdminPrincipal, type Runtime } from '@reelstat/core';

/**
 * Who may call a route:
 * - public: anyone (the short documented list in docs/security.md);
 * - authenticated: a login token, an API key, or anyone when require-login is off;
 * - setup: anyone, but only in the first-run state the handler checks.
 */
export type Access = 'public' | 'authenticated' | 'setup';
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface RouteContext<Body, Query, Params> {
  body: Body;
  query: Query;
  params: Params;
  principal: AdminPrincipal | undefined;
  req: Request;
  res: Response;
  runtime: Runtime;
}

export interface RouteDefinition<Body = unknown, Query = unknown, Params = unknown, Result = unknown> {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  access: Access;
  body?: ZodType<Body>;
  query?: ZodType<Query>;
  params?: ZodType<Params>;
  /** The answer's schema: documents the contract (OpenAPI) and is checked in tests. */
  response?: ZodType<Result>;
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
 * Mounts route definitions on an Express router: parse and validate (400 with what was wrong), check access,
 * call the handler, send JSON. Keeps every definition for the OpenAPI document and the route tests.
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
        if (definition.access === 'authenticated' && !principal) throw AppError.unauthorized();
        const body = parse(definition.body, req.body ?? {}, 'body');
        const query = parse(definition.query, req.query, 'query');
        const params = parse(definition.params, req.params, 'params');
        const result = await definition.handle({ body, query, params, principal, req, res, runtime: this.runtime });
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
