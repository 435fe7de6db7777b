// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, errorMessage } from './client';
import { useServerSelection } from '../store/server-selection';

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

  it('names the selected media server on scoped calls, and forgets it when the server does not know it', async () => {
    const den = '6f1c1a52-8f0e-4a8e-9a55-0d6f3c1f2b7e';
    useServerSelection.getState().select(den);
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ status: 404, code: 'media_server_not_found', message: 'No media server has the Id' }), {
          status: 404,
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await api('/api/getLibraries').catch(() => undefined);
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe(`/api/getLibraries?serverId=${den}`);
    expect(useServerSelection.getState().selected).toBeNull();
    expect(localStorage.getItem('PREF_MEDIA_SERVER')).toBeNull();
  });
});
