// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDueForRenewal, renewTokenIfDue, tokenTimes } from './token-renewal';
import { getStoredToken, setStoredToken } from '../store/preferences';

/** An unsigned token with these times: the browser never checks signatures, only reads the times. */
function tokenWith(iat: number, exp: number): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 1, ver: 0, iat, exp })}.signature`;
}

describe('token renewal', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('reads the times of a token and is due from half its life until it expires', () => {
    const now = Date.now() / 1000;
    expect(tokenTimes(tokenWith(100, 3700))).toEqual({ iat: 100, exp: 3700 });
    expect(tokenTimes('not-a-token')).toBeUndefined();
    expect(isDueForRenewal(tokenWith(now - 60, now + 3540))).toBe(false);
    expect(isDueForRenewal(tokenWith(now - 1900, now + 1700))).toBe(true);
    expect(isDueForRenewal(tokenWith(now - 3700, now - 100))).toBe(false);
  });

  it('swaps a due token for the renewed one, once for concurrent callers', async () => {
    const now = Date.now() / 1000;
    const old = tokenWith(now - 1900, now + 1700);
    setStoredToken(old);
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(`${init?.method} ${String(input)} ${(init?.headers as Record<string, string>).Authorization}`);
      return new Response(JSON.stringify({ token: 'renewed' }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    await Promise.all([renewTokenIfDue(), renewTokenIfDue()]);
    expect(calls).toEqual([`POST /auth/renew Bearer ${old}`]);
    expect(getStoredToken()).toBe('renewed');
  });

  it('keeps the token when the renewal is refused', async () => {
    const now = Date.now() / 1000;
    const old = tokenWith(now - 1900, now + 1700);
    setStoredToken(old);
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ message: 'no' }), { status: 401 }));
    await renewTokenIfDue();
    expect(getStoredToken()).toBe(old);
  });
});
