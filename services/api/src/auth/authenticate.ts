import type { RequestHandler } from 'express';
import type { Principal, Runtime } from '@reelstat/core';

declare module 'express-serve-static-core' {
  interface Request {
    /** Who is calling, when they proved it (or require-login is off); undefined otherwise. */
    principal?: Principal;
  }
}

/** The credential a request carries: `Authorization: Bearer <token>` or `x-api-token: <key>`. */
export function credentialsOf(headers: Record<string, string | string[] | undefined>): { token?: string; apiKey?: string } {
  const authorization = headers.authorization;
  const apiKey = headers['x-api-token'];
  return {
    token:
      typeof authorization === 'string' && /^Bearer\s+\S+$/i.test(authorization) ? authorization.replace(/^Bearer\s+/i, '') : undefined,
    apiKey: typeof apiKey === 'string' && apiKey ? apiKey : undefined,
  };
}

/**
 * Resolves the caller once per request: login token, API key, or (with require-login off) the anonymous
 * administrator. It never rejects; each route's access rule does (see http/api-routes.ts).
 * API keys are accepted only in a header: URLs end up in logs and browser history.
 */
export async function resolvePrincipal(
  runtime: Runtime,
  headers: Record<string, string | string[] | undefined>,
): Promise<Principal | undefined> {
  const { token, apiKey } = credentialsOf(headers);
  const { auth, apiKeys, settings } = runtime.services;
  if (token) {
    const principal = await auth.authenticateToken(token);
    if (principal) return principal;
  }
  if (apiKey) {
    const key = await apiKeys.verify(apiKey);
    if (key) return { kind: 'api-key', role: 'admin', accountId: undefined, username: `api-key:${key.name}` };
  }
  if (!(await settings.get('REQUIRE_LOGIN'))) {
    return { kind: 'anonymous-admin', role: 'admin', accountId: undefined, username: (await auth.adminUsername()) ?? 'admin' };
  }
  return undefined;
}

export function authenticate(runtime: Runtime): RequestHandler {
  return (req, _res, next) => {
    resolvePrincipal(runtime, req.headers).then(
      (principal) => {
        req.principal = principal;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
