// Short-lived login tokens (TOKEN_TTL_HOURS) renewed by the dashboard through POST /auth/renew, until the login is
// TOKEN_RENEW_MAX_HOURS old; revoked tokens and API keys cannot renew.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken, verifyToken } from '@reelstat/core';
import { createAdmin, digest, startApiHarness, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';

describe('login token renewal', () => {
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    harness = await startApiHarness({ TOKEN_TTL_HOURS: '1', TOKEN_RENEW_MAX_HOURS: '2' });
    token = await createAdmin(harness);
  });
  afterAll(async () => {
    await harness.stop();
  });

  const secret = () => harness.app.runtime.config.jwtSecret;

  it('issues tokens valid for TOKEN_TTL_HOURS and renews them keeping the login time', async () => {
    const claims = verifyToken(token, secret())!;
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.auth_time).toBe(claims.iat);
    // A token issued half an hour ago, for a login made then.
    const older = signToken({ sub: claims.sub, ver: claims.ver, auth_time: claims.iat - 1800 }, secret(), 3600, Date.now() - 1_800_000);
    const renewed = await harness.call('POST', '/auth/renew', { token: older });
    expect(renewed.status).toBe(200);
    const fresh = (renewed.body as { token: string }).token;
    const freshClaims = verifyToken(fresh, secret())!;
    expect(freshClaims.auth_time).toBe(claims.iat - 1800);
    expect(freshClaims.exp).toBeGreaterThan(verifyToken(older, secret())!.exp);
    expect((await harness.call('GET', '/api/getconfig', { token: fresh })).status).toBe(200);
  });

  it('refuses a login older than TOKEN_RENEW_MAX_HOURS, an expired token, an API key and no credentials', async () => {
    const claims = verifyToken(token, secret())!;
    const tooOld = signToken({ sub: claims.sub, ver: claims.ver, auth_time: claims.iat - 3 * 3600 }, secret(), 3600);
    expect(await harness.call('POST', '/auth/renew', { token: tooOld })).toMatchObject({
      status: 401,
      body: { message: 'The login is too old to be renewed; log in again' },
    });
    const expired = signToken({ sub: claims.sub, ver: claims.ver, auth_time: claims.iat }, secret(), 3600, Date.now() - 2 * 3600_000);
    expect((await harness.call('POST', '/auth/renew', { token: expired })).status).toBe(401);
    const { key } = (await harness.call('POST', '/api/keys', { token, body: { name: 'renewal' } })).body as { key: string };
    expect(await harness.call('POST', '/auth/renew', { apiKey: key })).toMatchObject({
      status: 401,
      body: { message: 'Renewal needs a login token' },
    });
    expect((await harness.call('POST', '/auth/renew')).status).toBe(401);
  });

  it('refuses a token revoked by a password change', async () => {
    const changed = await harness.call('POST', '/api/updateCredentials', {
      token,
      body: { username: 'admin', current_password: digest('secret-1'), new_password: digest('secret-2') },
    });
    expect(changed.status).toBe(200);
    expect((await harness.call('POST', '/auth/renew', { token })).status).toBe(401);
    const current = (changed.body as { token: string }).token;
    expect((await harness.call('POST', '/auth/renew', { token: current })).status).toBe(200);
  });
});
