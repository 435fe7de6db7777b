// Every answer an API test receives is checked against its route's contract: a success against the route's zod
// response schema, an error against the error shape. The harness's call() runs it on each answer, so a handler
// whose answer drifts from the documented schema fails the test that called it.
import { errorAnswer } from '@reelstat/contract';
import type { z } from 'zod';
import type { ApiRole } from '@reelstat/api';

type RouteDefinitions = NonNullable<ApiRole['routes']>['definitions'];
type Definition = RouteDefinitions[number];

function describeIssues(where: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => `${[where, ...issue.path].join('.')}: ${issue.message}`);
}

/** `/webhooks/:id/test` → a regular expression matching a request path. */
function pathPattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** The route a request reached, by method and path (query string and BASE_URL ignored). */
export function findRoute(definitions: RouteDefinitions, method: string, url: string, baseUrl = ''): Definition | undefined {
  let path = url.split('?')[0]!;
  if (baseUrl && path.startsWith(baseUrl)) path = path.slice(baseUrl.length) || '/';
  return definitions.find((definition) => definition.method === method.toLowerCase() && pathPattern(definition.path).test(path));
}

/**
 * Problems with one answer ([] when it keeps the contract): a success must match the route's response schema
 * (when it declares one) and use its status; every 4xx/5xx JSON answer must have the error shape.
 */
export function answerProblems(definition: Definition, status: number, body: unknown, contentType: string | null): string[] {
  const where = `${definition.method.toUpperCase()} ${definition.path} → ${status}`;
  if (status >= 400) {
    if (!contentType?.includes('application/json')) return [];
    const result = errorAnswer.safeParse(body);
    return result.success ? [] : describeIssues(`${where} error`, result.error);
  }
  if (status === 304 || !definition.response) return [];
  const expected = definition.status ?? 200;
  if (status !== expected) return [`${where}: a success of this route answers ${expected}`];
  const result = definition.response.safeParse(body);
  return result.success ? [] : describeIssues(`${where} body`, result.error);
}
