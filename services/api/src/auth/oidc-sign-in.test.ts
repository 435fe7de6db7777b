import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcSignIn, openDatabase, sealFlow, type Database, type OidcFlow } from '@reelstat/core';
import { freePort } from '@reelstat/core/test-support/test-kit.js';
import { testConfig, testLogger } from '@reelstat/core/test-support/test-services.js';
import { createAdmin, startApiHarness, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';
import { startOidcProvider, type OidcProviderHarness } from '../../test/oidc-provider-harness.js';

const JWT_SECRET = 'oidc-test-secret-oidc-test-secret-0123';

const ACCOUNTS = {
  'sub-alice': { preferred_username: 'alice', email: 'alice@example.org', groups: ['family'] },
  'sub-root': { preferred_username: 'root', email: 'root@example.org', groups: ['family', 'reelstat-admins'] },
  'sub-stranger': { preferred_username: 'stranger', email: 'stranger@example.org', groups: [] },
};

/** The dashboard address the callback redirects to, with its outcome in the fragment. */
function outcome(location: string | null): Record<string, string> {
  expect(location).toMatch(/^\/#/);
  return Object.fromEntries(new URLSearchParams(location!.slice(2)));
}

describe('sign-in with OpenID Connect against a real provider (oidc-provider)', () => {
  let harness: ApiHarness;
  let provider: OidcProviderHarness;
  let db: Database;
  const serverId = randomUUID();

  /** What the dashboard's button does: GET /auth/oidc/start, keeping the flow cookie. */
  const start = async () => {
    const res = await fetch(`${harness.url}/auth/oidc/start`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const cookie = res.headers.getSetCookie().find((set) => set.startsWith('reelstat_oidc='))!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
    return { authorizationUrl: res.headers.get('location')!, cookie: cookie.split(';')[0]! };
  };
  const callback = async (url: URL, cookie: string | undefined) => {
    const res = await fetch(`${harness.url}${url.pathname}${url.search}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    expect(res.status).toBe(302);
    return outcome(res.headers.get('location'));
  };
  const signIn = async (account: keyof typeof ACCOUNTS) => {
    const { authorizationUrl, cookie } = await start();
    return callback(await provider.signIn(authorizationUrl, account), cookie);
  };

  beforeAll(async () => {
    const providerPort = await freePort();
    const issuer = `http://127.0.0.1:${providerPort}`;
    harness = await startApiHarness({
      JWT_SECRET,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: 'reelstat',
      OIDC_CLIENT_SECRET: 'a-client-secret-of-forty-characters-long!',
      OIDC_ADMIN_GROUPS: 'reelstat-admins, other-admins',
      OIDC_LABEL: 'Pocket ID',
    });
    provider = await startOidcProvider(providerPort, `${harness.url}/auth/oidc/callback`, ACCOUNTS);
    await createAdmin(harness);
    db = openDatabase(harness.database.url, testLogger);
    await db.query(
      `INSERT INTO media_servers (id, name, kind, url, api_key_encrypted, is_default) VALUES ($1, 'home', 'jellyfin', 'http://x', $2, true)`,
      [serverId, harness.app.runtime.services.secretBox.seal('not-used')],
    );
    await db.query(`INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, 'a11ce', 'Alice', true)`, [serverId]);
  });
  afterAll(async () => {
    await db?.close();
    await harness?.stop();
    await provider?.stop();
  });

  it('offers the button with its label', async () => {
    expect((await harness.call('GET', '/auth/signInMethods')).body).toMatchObject({
      oidc: { label: 'Pocket ID', startUrl: '/auth/oidc/start' },
    });
  });

  it('signs a person in as a viewer linked to the media-server user their username names', async () => {
    const { oidc_token: token, oidc_error: error } = await signIn('sub-alice');
    expect(error).toBeUndefined();
    expect((await harness.call('GET', '/auth/me', { token })).body).toEqual({
      username: 'alice',
      role: 'viewer',
      method: 'oidc',
      mediaUser: { serverId, userId: 'a11ce' },
      serverStats: false,
    });
    expect((await harness.call('GET', '/api/getconfig', { token })).status).toBe(403);
  });

  it('makes a member of an admin group an admin; nobody linked when no media-server user has the name', async () => {
    const { oidc_token: token } = await signIn('sub-root');
    expect((await harness.call('GET', '/auth/me', { token })).body).toMatchObject({ role: 'admin', method: 'oidc', mediaUser: null });
    expect((await harness.call('GET', '/api/getconfig', { token })).status).toBe(200);
    const stranger = await signIn('sub-stranger');
    expect((await harness.call('GET', '/auth/me', { token: stranger.oidc_token })).body).toMatchObject({ role: 'viewer', mediaUser: null });
    expect((await harness.call('GET', '/api/getHistory', { token: stranger.oidc_token })).status).toBe(403);
  });

  it('refuses a callback whose state was changed', async () => {
    const { authorizationUrl, cookie } = await start();
    const back = await provider.signIn(authorizationUrl, 'sub-root');
    back.searchParams.set('state', 'forged-state');
    const result = await callback(back, cookie);
    expect(result.oidc_token).toBeUndefined();
    expect(result.oidc_error).toMatch(/^OpenID Connect sign-in failed: .*state/i);
  });

  it('refuses an ID token whose nonce is not the one this browser was given', async () => {
    const { authorizationUrl, cookie } = await start();
    const back = await provider.signIn(authorizationUrl, 'sub-root');
    // The flow cookie re-signed with another nonce (as if the code had been obtained for another sign-in).
    const flow = JSON.parse(Buffer.from(cookie.split('=')[1]!.split('.')[0]!, 'base64url').toString()) as OidcFlow;
    const forged = `reelstat_oidc=${sealFlow({ ...flow, nonce: 'another-nonce' }, JWT_SECRET)}`;
    const result = await callback(back, forged);
    expect(result.oidc_token).toBeUndefined();
    expect(result.oidc_error).toMatch(/^OpenID Connect sign-in failed: .*nonce/i);
  });

  it('refuses a callback without the flow cookie (login CSRF) or with one changed by the browser', async () => {
    const { authorizationUrl, cookie } = await start();
    const back = await provider.signIn(authorizationUrl, 'sub-root');
    expect((await callback(back, undefined)).oidc_error).toBe('The sign-in expired or was started in another browser; start it again');
    expect((await callback(back, `${cookie}x`)).oidc_error).toBe('The sign-in expired or was started in another browser; start it again');
  });

  it('refuses an expired ID token', async () => {
    const config = testConfig({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
    }).oidc!;
    const runtime = findRuntime(harness);
    // A clock two hours ahead: the provider's ID token (valid one hour) has expired by then.
    const late = new OidcSignIn(config, runtime.services.auth, db, JWT_SECRET, testLogger, { clockSkewSeconds: 7200 });
    const { url, cookie } = await late.start(`${harness.url}/auth/oidc/callback`);
    const back = await provider.signIn(url, 'sub-alice');
    await expect(late.finish(back, cookie)).rejects.toMatchObject({ status: 401, message: expect.stringMatching(/exp/) });
  });

  it('provider down: the start is a clear 503', async () => {
    await provider.stop();
    const config = testConfig({ OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId }).oidc!;
    const fresh = new OidcSignIn(config, findRuntime(harness).services.auth, db, JWT_SECRET, testLogger);
    await expect(fresh.start(`${harness.url}/auth/oidc/callback`)).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/^The OpenID provider could not be reached/),
    });
  });
});

const findRuntime = (harness: ApiHarness) => harness.app.runtime;
