import { AppError, VERSION, linkMediaServer, onMediaServerLinked, readSetupState } from '@reelstat/core';
import {
  configSetupAnswer,
  credentialsBody,
  loginBody,
  mediaServerLinkBody,
  mediaServerLoginBody,
  meAnswer,
  setupStateAnswer,
  signInAnswer,
  signInMethodsAnswer,
  tokenAnswer,
} from '@reelstat/contract';
import type { Response } from 'express';
import { route } from '../http/api-routes.js';
import { credentialsOf } from './authenticate.js';

/** A rate-limited call: its 429 carries Retry-After. */
async function withRetryAfter<T>(res: Response, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const retry = (error as AppError).details as { retryAfterSeconds?: number } | undefined;
    if (error instanceof AppError && error.status === 429 && retry?.retryAfterSeconds)
      res.setHeader('Retry-After', String(retry.retryAfterSeconds));
    throw error;
  }
}

export const authRoutes = [
  route({
    method: 'get',
    path: '/auth/isConfigured',
    tag: 'auth',
    summary: 'Setup state: 0 no administrator, 1 no media server linked, 2 ready',
    access: 'public',
    response: setupStateAnswer,
    handle: async ({ runtime }) => ({ state: await readSetupState(runtime.db), version: VERSION }),
  }),
  route({
    method: 'post',
    path: '/auth/createuser',
    tag: 'auth',
    summary: 'Create the administrator account (only while none exists); rate-limited per client address',
    access: 'public',
    body: credentialsBody,
    response: tokenAnswer,
    handle: async ({ body, req, res, runtime }) =>
      withRetryAfter(res, () => runtime.services.auth.createFirstAdmin(body.username, body.password, req.ip ?? 'unknown')),
  }),
  route({
    method: 'post',
    path: '/auth/login',
    tag: 'auth',
    summary: 'Log in; attempts are rate-limited per client address and per username',
    access: 'public',
    body: loginBody,
    response: tokenAnswer,
    handle: async ({ body, req, res, runtime }) => {
      if (!body.username || !body.password) throw AppError.unauthorized('Invalid username or password');
      const { username, password } = body;
      return withRetryAfter(res, () => runtime.services.auth.login(username, password, req.ip ?? 'unknown'));
    },
  }),
  route({
    method: 'post',
    path: '/auth/mediaServerLogin',
    tag: 'auth',
    summary:
      'Sign in with a Jellyfin or Emby account, checked by the media server (its administrators are admins here, others viewers); rate-limited like /auth/login',
    access: 'public',
    servers: 'one',
    body: mediaServerLoginBody,
    response: signInAnswer,
    handle: async ({ body, serverId, req, res, runtime }) =>
      withRetryAfter(res, () => runtime.services.mediaServerSignIn.signIn({ ...body, serverId }, req.ip ?? 'unknown')),
  }),
  route({
    method: 'get',
    path: '/auth/signInMethods',
    tag: 'auth',
    summary: 'The sign-in methods the login screen offers: media-server accounts, OpenID Connect',
    access: 'public',
    response: signInMethodsAnswer,
    handle: async ({ runtime }) => {
      const [policy, server] = await Promise.all([
        runtime.services.settings.get('MEDIA_SERVER_SIGN_IN'),
        runtime.services.mediaServers.getDefault(),
      ]);
      return {
        mediaServer: { enabled: policy.enabled && server !== undefined, kind: server?.kind ?? null, name: server?.name ?? null },
        oidc: runtime.services.oidc
          ? { label: runtime.services.oidc.config.label, startUrl: `${runtime.config.baseUrl}/auth/oidc/start` }
          : null,
      };
    },
  }),
  route({
    method: 'get',
    path: '/auth/me',
    tag: 'auth',
    summary: 'Who the credentials belong to, their role, and whether the server-wide cards are open to them',
    access: 'signed-in',
    response: meAnswer,
    handle: async ({ principal, runtime }) => ({
      username: principal!.username,
      role: principal!.role,
      method: principal!.kind,
      mediaUser: principal!.mediaUser ?? null,
      serverStats: principal!.role === 'admin' || (await runtime.services.settings.get('VIEWERS_SEE_SERVER_STATS')),
    }),
  }),
  route({
    method: 'post',
    path: '/auth/renew',
    tag: 'auth',
    summary: 'A fresh login token for the one sent (the dashboard renews silently; refused after TOKEN_RENEW_MAX_HOURS)',
    access: 'signed-in',
    response: tokenAnswer,
    handle: async ({ req, principal, runtime }) => {
      const { token } = credentialsOf(req.headers);
      const byToken = principal?.kind === 'admin' || principal?.kind === 'media-server' || principal?.kind === 'oidc';
      if (!byToken || !token) throw AppError.unauthorized('Renewal needs a login token');
      return { token: await runtime.services.auth.renewToken(token) };
    },
  }),
  route({
    method: 'post',
    path: '/auth/configSetup',
    tag: 'auth',
    summary: 'First-run step 2: link the media server (only while none is linked; needs the token of /auth/createuser)',
    access: 'setup',
    body: mediaServerLinkBody,
    response: configSetupAnswer,
    handle: async ({ body, principal, runtime }) => {
      const state = await readSetupState(runtime.db);
      if (state === 0) throw AppError.conflict('Create the administrator account first');
      // Between the two first-run steps the instance must not be claimable by whoever arrives next: linking
      // needs the token /auth/createuser returned.
      if (!principal) throw AppError.unauthorized('Send the token /auth/createuser returned');
      // Once linked, changing the server is a settings call and needs a login.
      if (state === 2) throw AppError.forbidden('A media server is already linked; change it from the settings (POST /api/setconfig)');
      const link = await linkMediaServer(runtime.services.mediaServers, { url: body.JF_HOST, apiKey: body.JF_API_KEY }, runtime.logger);
      await onMediaServerLinked(runtime);
      return { message: `Linked ${link.kind === 'emby' ? 'Emby' : 'Jellyfin'} server ${link.name}`, kind: link.kind };
    },
  }),
];
