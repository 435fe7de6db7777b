import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, digest, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';

describe('accounts, login, tokens and rate limiting', () => {
  let harness: ApiHarness;
  beforeAll(async () => {
    harness = await startApiHarness({ LOGIN_MAX_FAILURES: '3', LOGIN_LOCKOUT_MINUTES: '1' });
  });
  afterAll(async () => {
    await harness.stop();
  });

  it('walks the setup states and lets the administrator be created once only', async () => {
    expect((await harness.call('GET', '/auth/isConfigured')).body).toEqual({ state: 0, version: expect.any(String) });
    const created = await harness.call('POST', '/auth/createuser', { body: { username: 'Admin', password: digest('first-pass') } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect((await harness.call('GET', '/auth/isConfigured')).body).toMatchObject({ state: 1 });

    const again = await harness.call('POST', '/auth/createuser', { body: { username: 'intruder', password: digest('whatever') } });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({
      status: 403,
      code: 'forbidden',
      message: 'An administrator account already exists',
      error: 'An administrator account already exists',
      errorMessage: 'An administrator account already exists',
    });
    const [row] = await harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_accounts');
    expect(row!.n).toBe(1);
  });

  it('stores a salted scrypt hash, never the password or its digest', async () => {
    const [row] = await harness.app.runtime.db.query<{ password_hash: string }>('SELECT password_hash FROM admin_accounts');
    expect(row!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(row!.password_hash).not.toContain(digest('first-pass'));
  });

  it('logs in case-insensitively by username and refuses a wrong password with 401', async () => {
    const ok = await harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('first-pass') } });
    expect(ok.status).toBe(200);
    const empty = await harness.call('POST', '/auth/login', { body: {} });
    expect([empty.status, (empty.body as { message: string }).message]).toEqual([401, 'Invalid username or password']);
    const bad = await harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('wrong') } });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({
      status: 401,
      code: 'unauthorized',
      message: 'Invalid username or password',
      error: 'Invalid username or password',
      errorMessage: 'Invalid username or password',
    });
  });

  it('changes the password, revoking every older token', async () => {
    const login = await harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('first-pass') } });
    const oldToken = (login.body as { token: string }).token;
    const changed = await harness.call('POST', '/api/updateCredentials', {
      token: oldToken,
      body: { username: 'admin', current_password: digest('first-pass'), new_password: digest('second-pass') },
    });
    expect(changed.body).toEqual({ isValid: true, errorMessage: '', token: expect.any(String) });
    expect((await harness.call('GET', '/api/getconfig', { token: oldToken })).status).toBe(401);
    const newToken = (changed.body as { token: string }).token;
    expect((await harness.call('GET', '/api/getconfig', { token: newToken })).body).toMatchObject({ APP_USER: 'admin' });
    expect((await harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('first-pass') } })).status).toBe(401);
    expect((await harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('second-pass') } })).status).toBe(200);
  });

  it('accepts at once a token issued after a revocation made by another process', async () => {
    const login = () => harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('second-pass') } });
    const before = (await login()).body as { token: string };
    // This process has just read the account (and may keep that read for 2 s)…
    expect((await harness.call('GET', '/api/getconfig', { token: before.token })).status).toBe(200);
    // …when another process (a replica, npm run reset-password) revokes every token.
    await harness.app.runtime.db.query('UPDATE admin_accounts SET token_version = token_version + 1');
    const after = (await login()).body as { token: string };
    expect((await harness.call('GET', '/api/getconfig', { token: after.token })).status).toBe(200);
  });

  it('applies the password rules of SPEC.md §5 with isValid/errorMessage', async () => {
    const { token } = (await harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('second-pass') } }))
      .body as { token: string };
    const cases: Array<[Record<string, string>, string]> = [
      [{ username: '  ' }, 'Username is required'],
      [{ username: 'admin', current_password: digest('second-pass') }, 'New password must be at least 6 characters'],
      [{ username: 'admin', current_password: digest('nope'), new_password: digest('third-pass') }, 'Current password is incorrect'],
      [{ username: 'admin', new_password: digest('third-pass') }, 'Enter the current password to set a new one'],
    ];
    for (const [body, errorMessage] of cases) {
      expect((await harness.call('POST', '/api/updateCredentials', { token, body })).body).toEqual({ isValid: false, errorMessage });
    }
    // Renaming alone keeps the session.
    expect((await harness.call('POST', '/api/updateCredentials', { token, body: { username: 'boss' } })).body).toEqual({
      isValid: true,
      errorMessage: '',
    });
    expect((await harness.call('GET', '/api/getconfig', { token })).body).toMatchObject({ APP_USER: 'boss' });
  });

  it('rate-limits failed logins per client address with 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await harness.call('POST', '/auth/login', { body: { username: 'boss', password: digest(`guess-${i}`) } })).status).toBe(401);
    }
    const blocked = await harness.call('POST', '/auth/login', { body: { username: 'boss', password: digest('second-pass') } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'too_many_attempts', message: 'Too many failed logins. Try again in 1 minute(s).' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });
});
