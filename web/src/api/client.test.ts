// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, errorMessage } from './client';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('api client', () => {
  it('sends the stored token as a bearer token and JSON bodies', async () => {
    localStorage.setItem('token', 'abc');
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: 1 }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await api('/api/keys/', { method: 'POST', body: { name: 'x' }, query: { a: 1, b: undefined } })).toEqual({ ok: 1 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/keys/?a=1');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer abc');
    expect(init.body).toBe('{"name":"x"}');
  });

  it("surfaces the server's message from its error shape", async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ status: 409, code: 'conflict', message: 'Managed by Kubernetes' }), { status: 409 }),
    );
    const error = await api('/api/setconfig/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect(errorMessage(error)).toBe('Managed by Kubernetes');
  });

  it('falls back to "Error : status" and reports a network failure as status 0', async () => {
    vi.stubGlobal('fetch', async () => new Response('', { status: 502 }));
    expect(errorMessage(await api('/x').catch((e: unknown) => e))).toBe('Error : 502');
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = (await api('/x').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(0);
  });
});
