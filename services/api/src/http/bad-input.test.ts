import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, digest, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';

/** Bad input on every endpoint of the auth/settings/keys domains: 400 with what was wrong, nothing saved. */
describe('bad input', () => {
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    harness = await startApiHarness();
  });
  afterAll(async () => {
    await harness.stop();
  });

  const countRows = async (table: string) =>
    (await harness.app.runtime.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  it('rejects malformed first-run requests before anything is created', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /body\.username: .*; body\.password:/],
      [{ username: 'admin' }, /body\.password/],
      [{ username: 'admin', password: 'plain-text-password' }, /body\.password: must be the SHA3-512 hex digest/],
      [{ username: 42, password: digest('x') }, /body\.username: .*string/],
      [{ username: '', password: digest('x') }, /body\.username: is required/],
      [{ username: 'a'.repeat(101), password: digest('x') }, /body\.username: must be at most 100 characters/],
      [[1, 2], /body: /],
    ];
    for (const [body, message] of cases) {
      const res = await harness.call('POST', '/auth/createuser', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as { code: string }).code).toBe('bad_request');
      expect((res.body as { message: string }).message).toMatch(message);
    }
    expect(await countRows('admin_accounts')).toBe(0);
  });

  it('rejects a body that is not JSON or is too large', async () => {
    const notJson = await fetch(`${harness.url}/auth/createuser`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({
      status: 400,
      code: 'bad_request',
      message: 'Request body is not valid JSON',
      error: 'Request body is not valid JSON',
      errorMessage: 'Request body is not valid JSON',
    });
    const huge = await fetch(`${harness.url}/auth/createuser`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'x'.repeat(2_000_000), password: digest('x') }),
    });
    expect(huge.status).toBe(413);
    expect(await countRows('admin_accounts')).toBe(0);
    token = await createAdmin(harness);
  });

  it('rejects malformed settings and key requests and changes nothing', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/api/setconfig', { JF_HOST: '' }],
      ['POST', '/api/setconfig', { JF_HOST: 'http://x', JF_API_KEY: 7 }],
      ['POST', '/auth/configSetup', { JF_HOST: 'not a url', JF_API_KEY: 'k' }],
      ['POST', '/api/setExternalUrl', { ExternalUrl: 'ftp://files' }],
      ['POST', '/api/setExternalUrl', {}],
      ['POST', '/api/setPreferredAdmin', { userid: '', username: 'x' }],
      ['POST', '/api/setRequireLogin', { REQUIRE_LOGIN: 'no' }],
      ['POST', '/api/updateCredentials', { username: 'admin', new_password: 'short' }],
      ['POST', '/api/keys', { name: '' }],
      ['POST', '/api/keys', { name: 'x'.repeat(101) }],
      ['DELETE', '/api/keys', {}],
      ['DELETE', '/api/keys', { id: -1 }],
    ];
    for (const [method, path, body] of cases) {
      const res = await harness.call(method, path, { token, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body).toMatchObject({
        status: 400,
        code: 'bad_request',
        message: expect.stringMatching(/^Invalid request: |JF_HOST must/),
      });
    }
    expect(await countRows('api_keys')).toBe(0);
    expect(await countRows('media_servers')).toBe(0);
    expect(await countRows('app_settings')).toBe(0);
  });

  it('rejects NUL characters and unpaired surrogates anywhere in a request, and integers past the column range', async () => {
    const bad: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/api/setPreferredAdmin', { userid: 'abc\u0000', username: 'x' }, /body\.userid: must not contain a NUL/],
      ['POST', '/api/setPreferredAdmin', { userid: 'abc', username: 'lone \ud800 high' }, /body\.username: must not contain/],
      ['POST', '/api/setPreferredAdmin', { userid: 'abc', username: 'lone \udc00 low' }, /body\.username: must not contain/],
      ['POST', '/api/keys', { name: 'k\u0000' }, /body\.name: must not contain/],
      ['POST', '/api/keys', { ['n\u0000']: 'x', name: 'ok' }, /body\.n.: must not contain/],
      ['DELETE', '/api/keys', { id: 2147483648 }, /body\.id: is not a key id/],
      ['GET', '/logs/getLogs?offset=99999999999', undefined, /query\.offset/],
      // Found by the per-field audit (openapi/contract-bounds.test.ts): webhook ids are PostgreSQL integers.
      ['DELETE', '/webhooks/2147483648', undefined, /params\.id: is not a webhook id/],
      ['PUT', '/webhooks/2147483648', { name: 'x' }, /params\.id: is not a webhook id/],
      ['GET', '/webhooks/2147483648/deliveries', undefined, /params\.id: is not a webhook id/],
      ['POST', '/webhooks', { id: 2147483648, name: 'x' }, /body\.id: is not a webhook id/],
      ['GET', '/api/getHistory?size=1000000', undefined, /query\.size: must be 10, 25, 50 or 100/],
      ['GET', `/api/stopTask?task=${'x'.repeat(101)}`, undefined, /query\.task: is not a task name/],
      // Found by the fuzz suite once it filled path parameters: a percent-encoded lone surrogate answered 500.
      ['DELETE', '/webhooks/x%ED%B0%80', undefined, /not valid percent-encoded UTF-8/],
      ['GET', '/backup/files/x%ED%A0%80.json', undefined, /not valid percent-encoded UTF-8/],
    ];
    for (const [method, path, body, message] of bad) {
      const res = await harness.call(method, path, { token, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'bad_request', message: expect.stringMatching(message) });
    }
    // A paired surrogate (an emoji) is fine.
    const emoji = await harness.call('POST', '/api/keys', { token, body: { name: 'key \ud83c\udfac' } });
    expect(emoji.status).toBe(201);
    const listed = await harness.call('GET', '/api/keys', { token });
    expect(listed.body).toEqual([expect.objectContaining({ name: 'key 🎬' })]);
  });
});
