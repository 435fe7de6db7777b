import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket } from 'socket.io-client';
import { startApiHarness, digest, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';
import { findApiRole } from '../roles/api-role.js';

interface MountedRoute {
  method: string;
  path: string;
}

/** Every route as Express itself has it mounted, read from the router's stack (not from a list kept by hand). */
function mountedRoutes(harness: ApiHarness): MountedRoute[] {
  const stack = (
    findApiRole(harness.app.roles)!.routes!.router as unknown as {
      stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }>;
    }
  ).stack;
  return stack.flatMap((layer) =>
    layer.route ? Object.keys(layer.route.methods).map((method) => ({ method: method.toUpperCase(), path: layer.route!.path })) : [],
  );
}

/** The documented public list (docs/security.md). Anything else must answer 401 without credentials. */
const PUBLIC = new Set([
  'GET /auth/isConfigured',
  'POST /auth/createuser',
  'POST /auth/login',
  'POST /auth/mediaServerLogin',
  'GET /auth/signInMethods',
  // OpenID Connect redirects (404 unless OIDC_* is set; docs/security.md).
  'GET /auth/oidc/start',
  'GET /auth/oidc/callback',
  'POST /auth/configSetup',
  // Image proxies: loaded by <img>, which cannot send a token; ids and sizes only (docs/security.md).
  'GET /proxy/Items/Images/Primary',
  'GET /proxy/Items/Images/Backdrop',
  'GET /proxy/Users/Images/Primary',
  'GET /proxy/web/assets/img/devices/',
  // A CSV download: the single-use ticket in the query is the credential (docs/security.md).
  'GET /api/download',
]);

describe('authentication of every route', () => {
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    harness = await startApiHarness();
    const created = await harness.call('POST', '/auth/createuser', { body: { username: 'admin', password: digest('secret-1') } });
    token = (created.body as { token: string }).token;
  });
  afterAll(async () => {
    await harness.stop();
  });

  it('answers 401 without credentials on every route except the public list', async () => {
    const routes = mountedRoutes(harness);
    expect(routes.length).toBeGreaterThanOrEqual(15);
    const publicSeen: string[] = [];
    for (const { method, path } of routes) {
      const concrete = path.replace(/:(\w+)/g, 'x');
      const res = await harness.call(method, concrete, { body: method === 'GET' ? undefined : {} });
      const key = `${method} ${path}`;
      if (PUBLIC.has(key)) {
        publicSeen.push(key);
        // An empty login is a failed login (clients probe with `{}`): its own 401, not "authentication required".
        if (key === 'POST /auth/login')
          expect([res.status, (res.body as { message: string }).message]).toEqual([401, 'Invalid username or password']);
        else expect(res.status, key).not.toBe(401);
      } else {
        expect(res.status, key).toBe(401);
        expect(res.body, key).toEqual({
          status: 401,
          code: 'unauthorized',
          message: 'Authentication required',
          error: 'Authentication required',
          errorMessage: 'Authentication required',
        });
      }
    }
    expect(publicSeen.sort()).toEqual([...PUBLIC].sort());
  });

  it('answers 401 for a forged, expired or garbage token, and 200 with a valid one', async () => {
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    for (const bad of [forged, 'garbage', `${token}x`]) {
      expect((await harness.call('GET', '/api/getconfig', { token: bad })).status).toBe(401);
    }
    expect((await harness.call('GET', '/api/getconfig', { token })).status).toBe(200);
  });

  it('never accepts credentials in the URL', async () => {
    expect((await harness.call('GET', `/api/getconfig?token=${token}`)).status).toBe(401);
    expect((await harness.call('GET', `/api/keys?x-api-token=${token}`)).status).toBe(401);
  });

  it('refuses socket.io connections without credentials and accepts them with a token', async () => {
    const connect = (auth: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const socket = connectSocket(`http://127.0.0.1:${harness.app.port}`, {
          path: '/socket.io/',
          transports: ['websocket'],
          auth,
          reconnection: false,
        });
        socket.once('connect', () => {
          socket.disconnect();
          resolve('connected');
        });
        socket.once('connect_error', (error) => {
          socket.disconnect();
          resolve(error.message);
        });
      });
    expect(await connect({})).toBe('unauthorized');
    expect(await connect({ token: 'garbage' })).toBe('unauthorized');
    expect(await connect({ token })).toBe('connected');
  });

  it('lets anyone act as the administrator when require-login is off, and says so', async () => {
    const off = await harness.call('POST', '/api/setRequireLogin', { token, body: { REQUIRE_LOGIN: false } });
    expect(off.body).toEqual({ message: 'Login is off: anyone who can reach Reelstat acts as the administrator' });
    const config = await harness.call('GET', '/api/getconfig');
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ REQUIRE_LOGIN: false, APP_USER: 'admin' });
    await harness.call('POST', '/api/setRequireLogin', { body: { REQUIRE_LOGIN: true } });
    expect((await harness.call('GET', '/api/getconfig')).status).toBe(401);
  });
});
