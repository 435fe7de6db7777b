import { AppError, OIDC_FLOW_COOKIE, OIDC_FLOW_SECONDS, type Runtime } from '@reelstat/core';
import type { Request, Response } from 'express';
import { route } from '../http/api-routes.js';

/** The flow cookie goes back only to the callback, never to the API or to scripts (HttpOnly). */
function flowCookie(runtime: Runtime, req: Request, value: string, maxAge: number): string {
  const secure = req.secure ? '; Secure' : '';
  return `${OIDC_FLOW_COOKIE}=${value}; Path=${runtime.config.baseUrl}/auth/oidc; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

function readFlowCookie(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === OIDC_FLOW_COOKIE) return value.join('=');
  }
  return undefined;
}

function oidcOf(runtime: Runtime) {
  const oidc = runtime.services.oidc;
  if (!oidc) throw AppError.notFound('OpenID Connect is not configured (OIDC_ISSUER, OIDC_CLIENT_ID)');
  return oidc;
}

/**
 * The dashboard's address, with the outcome in the fragment: a fragment never reaches a server or its logs,
 * and the dashboard removes it from the address bar at once.
 */
function backToDashboard(runtime: Runtime, res: Response, outcome: Record<string, string>): void {
  res.redirect(302, `${runtime.config.baseUrl}/#${new URLSearchParams(outcome).toString()}`);
}

export const oidcRoutes = [
  route({
    method: 'get',
    path: '/auth/oidc/start',
    tag: 'auth',
    summary: 'Start an OpenID Connect sign-in: redirects to the provider (authorization code flow with PKCE, state and nonce)',
    access: 'public',
    status: 302,
    handle: async ({ req, res, runtime }) => {
      const redirectUri = `${req.protocol}://${req.get('host') ?? 'localhost'}${runtime.config.baseUrl}/auth/oidc/callback`;
      const { url, cookie } = await oidcOf(runtime).start(redirectUri);
      res.setHeader('Set-Cookie', flowCookie(runtime, req, cookie, OIDC_FLOW_SECONDS));
      res.redirect(302, url);
    },
  }),
  route({
    method: 'get',
    path: '/auth/oidc/callback',
    tag: 'auth',
    summary:
      'Where the provider sends the browser back: checks state, nonce and the ID token, then redirects to the dashboard with a login token (#oidc_token=) or the reason (#oidc_error=)',
    access: 'public',
    status: 302,
    handle: async ({ req, res, runtime }) => {
      const oidc = oidcOf(runtime);
      res.setHeader('Set-Cookie', flowCookie(runtime, req, '', 0));
      try {
        const { token } = await oidc.finish(new URL(req.originalUrl, 'http://callback.invalid'), readFlowCookie(req));
        backToDashboard(runtime, res, { oidc_token: token });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500)
          runtime.logger.warn({ err: String(error) }, 'OpenID Connect callback failed');
        backToDashboard(runtime, res, { oidc_error: error instanceof AppError ? error.message : 'The sign-in failed; start it again' });
      }
    },
  }),
];
