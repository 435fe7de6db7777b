// What the simulator cannot do, from tiny local HTTP servers: HTML instead of JSON, JSON of the wrong shape, a
// hanging server, 429 with Retry-After, 503 then 200, 401 never retried, the exact request the client sends,
// the concurrency limit and aborts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMediaServerClient } from './create-client.js';
import { EmbyClient } from './emby-client.js';
import { JellyfinClient } from './jellyfin-client.js';
import { MediaServerError } from './media-server-error.js';
import { probeMediaServer } from './probe.js';
import { waitFor } from '../test-support/test-kit.js';

const KEY = 'secret-key-0123456789abcdef000000';
const JELLYFIN_INFO = {
  LocalAddress: 'http://x',
  ServerName: 'Den',
  Version: '10.11.11',
  ProductName: 'Jellyfin Server',
  Id: 'a'.repeat(32),
};
const FAST = { retryBaseDelayMs: 1, retryMaxDelayMs: 5 };

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface LocalServer {
  url: string;
  requests: Recorded[];
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, n: number, body: string) => unknown;

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<LocalServer> {
  const state: LocalServer = { url: '', requests: [], inFlight: 0, maxInFlight: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      res.on('close', () => state.inFlight--);
      void handler(req, res, state.requests.length, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  servers.push(state);
  return state;
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(value));
}

async function rejection(promise: Promise<unknown>): Promise<MediaServerError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MediaServerError) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}

const jellyfin = (url: string, extra: Partial<ConstructorParameters<typeof JellyfinClient>[0]> = {}) =>
  new JellyfinClient({ url, apiKey: KEY, ...FAST, ...extra });

describe('what the client sends', () => {
  it('Jellyfin: the MediaBrowser Authorization header, Accept JSON, camelCase parameters, base path kept', async () => {
    const server = await serve((_req, res) => json(res, 200, { Items: [], TotalRecordCount: 0, StartIndex: 0 }));
    const client = jellyfin(`${server.url}/jellyfin//`, { deviceId: 'install-42' });
    const pages = [];
    for await (const page of client.iterateItems({
      parentId: 'A'.repeat(32),
      includeItemTypes: ['Movie', 'Episode'],
      minDateLastSaved: new Date(0),
    })) {
      pages.push(page);
    }
    expect(pages).toEqual([{ items: [], startIndex: 0, totalRecordCount: 0 }]);
    const [req] = server.requests;
    expect(req?.headers.authorization).toBe(
      `MediaBrowser Client="Reelstat", Device="Reelstat", DeviceId="install-42", Version="${req?.headers['user-agent']?.split('/')[1]}", Token="${KEY}"`,
    );
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.headers['x-emby-token']).toBeUndefined();
    const url = new URL(req!.url, server.url);
    expect(url.pathname).toBe('/jellyfin/Items');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      parentId: 'a'.repeat(32),
      recursive: 'true',
      includeItemTypes: 'Movie,Episode',
      fields: 'DateCreated,DateLastSaved,ParentId,Path,Genres,ProviderIds,MediaSources',
      minDateLastSaved: '1970-01-01T00:00:00.000Z',
      sortBy: 'DateCreated,SortName',
      sortOrder: 'Ascending',
      startIndex: '0',
      limit: '500',
    });
  });

  it('Emby: the /emby prefix once, X-Emby-Token, PascalCase parameters, /Users/Query', async () => {
    const server = await serve((req, res) => {
      if (req.url?.toLowerCase().startsWith('/emby/users/query'))
        json(res, 200, { Items: [{ Id: 'b'.repeat(32), Name: 'admin', Policy: { IsAdministrator: true } }], TotalRecordCount: 1 });
      else json(res, 200, { Items: [{ Id: '1001', Type: 'Movie' }], TotalRecordCount: 1 });
    });
    for (const url of [server.url, `${server.url}/emby`, `${server.url}/EMBY/`]) {
      const client = new EmbyClient({ url, apiKey: KEY });
      expect((await client.getAdminUsers()).map((u) => u.Name)).toEqual(['admin']);
      expect((await client.getItem('1001')).Id).toBe('1001');
    }
    expect(server.requests.map((r) => new URL(r.url, server.url).pathname)).toEqual([
      '/emby/Users/Query',
      '/emby/Items',
      '/emby/Users/Query',
      '/emby/Items',
      '/EMBY/Users/Query',
      '/EMBY/Items',
    ]);
    const items = new URL(server.requests[1]!.url, server.url);
    expect(items.searchParams.get('Ids')).toBe('1001');
    expect(items.searchParams.get('Recursive')).toBe('true');
    expect(items.searchParams.has('ids')).toBe(false);
    expect(server.requests[0]?.headers['x-emby-token']).toBe(KEY);
    expect(server.requests[0]?.headers.authorization).toMatch(/^MediaBrowser .*Token="secret-key-0123456789abcdef000000"$/);
  });

  it('refuses malformed ids and image parameters before sending anything', async () => {
    const server = await serve((_req, res) => json(res, 200, {}));
    const client = jellyfin(server.url);
    for (const attempt of [
      client.getItem('../../System/Info'),
      client.getItem('abc'),
      client.getSeasons('1 OR 1=1'),
      client.fetchImage({ kind: 'item', itemId: '%2e%2e%2fSystem' }),
      client.fetchImage({ kind: 'item', itemId: 'a'.repeat(32), imageType: 'Primary/../../x' as 'Primary' }),
      client.fetchImage({ kind: 'item', itemId: 'a'.repeat(32), fillWidth: -1 }),
      client.fetchImage({ kind: 'item', itemId: 'a'.repeat(32), quality: 101 }),
      client.fetchImage({ kind: 'item', itemId: 'a'.repeat(32), tag: 'x&api_key=1' }),
      client.fetchImage({ kind: 'user', userId: 'me' }),
      client.getItemsByIds(['a'.repeat(32), 'not-an-id']),
    ]) {
      expect((await rejection(attempt)).kind).toBe('invalid_request');
    }
    expect(server.requests).toEqual([]);
  });
});

describe('redirects', () => {
  it('follows a redirect on the same server; refuses one to another origin without sending the key there', async () => {
    const elsewhere = await serve((_req, res) => json(res, 200, JELLYFIN_INFO));
    const server = await serve((req, res) => {
      if (req.url === '/System/Info') {
        res.writeHead(301, { Location: '/jf/System/Info' });
        return res.end();
      }
      if (req.url === '/jf/System/Info') return json(res, 200, JELLYFIN_INFO);
      res.writeHead(302, { Location: `${elsewhere.url}/emby${req.url ?? ''}` });
      res.end();
    });
    const client = new EmbyClient({ url: server.url, apiKey: KEY });
    const jf = jellyfin(server.url);
    expect((await jf.getSystemInfo()).ServerName).toBe('Den');
    expect(server.requests.map((r) => r.url)).toEqual(['/System/Info', '/jf/System/Info']);
    expect(server.requests[1]?.headers.authorization).toContain(KEY);
    const error = await rejection(client.getSystemInfo());
    expect(error).toMatchObject({ kind: 'http', status: 302 });
    expect(error.message).toBe(
      `GET /emby/System/Info: the server redirects to ${elsewhere.url}/emby/emby/System/Info; configure that address instead (HTTP 302)`,
    );
    expect(elsewhere.requests).toEqual([]);
  });
});

describe('answers that are not what was asked for', () => {
  it('an HTML page is invalid_response, for the probe and for a call', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><html><body>Welcome to nginx!</body></html>');
    });
    const probe = await rejection(probeMediaServer(server.url, KEY));
    expect(probe.kind).toBe('invalid_response');
    expect(probe.message).toContain(`No Jellyfin or Emby server answers at ${server.url}`);
    expect(probe.message).toContain('HTML page');
    expect(server.requests.map((r) => r.url)).toEqual(['/System/Info/Public', '/emby/System/Info/Public']);
    const call = await rejection(jellyfin(server.url).getSessions());
    expect(call).toMatchObject({ kind: 'invalid_response', path: '/Sessions' });
  });

  it('JSON of another shape is invalid_response naming the missing field', async () => {
    const server = await serve((_req, res) => json(res, 200, { status: 'ok', name: 'some other API' }));
    const probe = await rejection(probeMediaServer(server.url, KEY));
    expect(probe.kind).toBe('invalid_response');
    expect(probe.message).toMatch(/Id: expected string, received undefined; Version: expected string/);
  });

  it('404 everywhere is not_found; a 404 root with Emby under /emby is found', async () => {
    const nothing = await serve((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    const probe = await rejection(probeMediaServer(nothing.url, KEY));
    expect(probe).toMatchObject({ kind: 'not_found', status: 404 });
    expect(probe.message).toContain('GET /System/Info/Public: not found (HTTP 404 Not Found); GET /emby/System/Info/Public: not found');

    const emby = await serve((req, res) => {
      if (req.url === '/emby/System/Info/Public') return json(res, 200, { ServerName: 'Attic', Version: '4.8.11.0', Id: 'c'.repeat(32) });
      if (req.url === '/emby/System/Info') return json(res, 200, { ServerName: 'Attic', Version: '4.8.11.0', Id: 'c'.repeat(32) });
      if (req.url === '/emby/Library/VirtualFolders/Query')
        return json(res, 200, { Items: [{ Name: 'Films', ItemId: '3', CollectionType: 'movies' }], TotalRecordCount: 1 });
      res.writeHead(404);
      res.end();
    });
    expect(await probeMediaServer(emby.url, KEY)).toEqual({
      kind: 'emby',
      serverName: 'Attic',
      version: '4.8.11.0',
      serverId: 'c'.repeat(32),
      productName: 'Emby Server',
      url: emby.url,
    });
  });

  it('a field of the wrong type is invalid_response with its path; nulls and unknown fields are fine', async () => {
    const item = {
      Id: 'd'.repeat(32),
      Type: 'Movie',
      Name: null,
      RunTimeTicks: 72_000_000_000,
      Genres: ['Drama'],
      Novel: { x: 1 },
      ProviderIds: { Tmdb: '1', Imdb: null },
    };
    let bad = false;
    const server = await serve((_req, res) => {
      const items = bad ? [item, { ...item, RunTimeTicks: '7200' }] : [item];
      json(res, 200, { Items: items, TotalRecordCount: items.length, StartIndex: 0 });
    });
    const client = jellyfin(server.url);
    const [ok] = await client.getItemsByIds(['d'.repeat(32)]);
    expect(ok).toEqual({ Id: 'd'.repeat(32), Type: 'Movie', RunTimeTicks: 72_000_000_000, Genres: ['Drama'], ProviderIds: { Tmdb: '1' } });
    expect(ok && 'Name' in ok).toBe(false);
    bad = true;
    const error = await rejection(client.getItemsByIds(['d'.repeat(32)]));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toBe('GET /Items: unexpected answer: Items[1].RunTimeTicks: expected number, received string');
    expect(server.requests).toHaveLength(2);
  });

  it('a body that is not JSON, or empty, is invalid_response', async () => {
    const server = await serve((_req, res, n) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(n === 1 ? '{"Id": ' : '');
    });
    const client = jellyfin(server.url);
    expect((await rejection(client.getPublicSystemInfo())).message).toBe(
      'GET /System/Info/Public: the answer is not JSON (application/json)',
    );
    expect((await rejection(client.getPublicSystemInfo())).message).toBe('GET /System/Info/Public: empty answer (HTTP 200), expected JSON');
  });

  it('an image request answered with a page is invalid_response; 304 passes through', async () => {
    const server = await serve((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { ETag: '"v1"' });
        return res.end();
      }
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>login</html>');
    });
    const client = jellyfin(server.url);
    const error = await rejection(
      client.fetchImage({ kind: 'item', itemId: 'e'.repeat(32), imageType: 'Backdrop', index: 1, maxWidth: 1280 }),
    );
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toContain('expected an image, got text/html');
    expect(new URL(server.requests[0]!.url, server.url).pathname).toBe(`/Items/${'e'.repeat(32)}/Images/Backdrop/1`);
    expect(server.requests[0]?.headers.accept).toBe('image/*');
    const cached = await client.fetchImage({ kind: 'user', userId: 'f'.repeat(32), tag: 'abc' }, { ifNoneMatch: '"v1"' });
    expect(cached).toMatchObject({ status: 304, body: null, etag: '"v1"' });
    expect(server.requests[1]?.url).toBe(`/UserImage?userId=${'f'.repeat(32)}&tag=abc`);
  });
});

describe('timeouts and retries', () => {
  it('a server that never answers times out on every attempt', async () => {
    const server = await serve(() => undefined);
    const client = jellyfin(server.url, { timeoutMs: 80, retries: 2 });
    const error = await rejection(client.getSystemInfo());
    expect(error).toMatchObject({ kind: 'network', attempts: 3, path: '/System/Info' });
    expect(error.message).toMatch(
      /^GET \/System\/Info: timed out: no answer from 127\.0\.0\.1:\d+ within 80 ms \(gave up after 3 attempts\)$/,
    );
    expect(server.requests).toHaveLength(3);
  });

  it('a body that stalls halfway also times out', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"Id": "x", ');
    });
    const error = await rejection(jellyfin(server.url, { timeoutMs: 80, retries: 0 }).getPublicSystemInfo());
    expect(error.kind).toBe('network');
    expect(error.message).toContain('within 80 ms');
  });

  it('503 then 200: retried and succeeds', async () => {
    const server = await serve((_req, res, n) => (n === 1 ? json(res, 503, {}) : json(res, 200, JELLYFIN_INFO)));
    expect((await jellyfin(server.url).getSystemInfo()).ServerName).toBe('Den');
    expect(server.requests).toHaveLength(2);
  });

  it('429 with Retry-After: waits as told, then succeeds', async () => {
    const arrivals: number[] = [];
    const server = await serve((_req, res, n) => {
      arrivals.push(Date.now());
      if (n === 1) json(res, 429, {}, { 'Retry-After': '1' });
      else json(res, 200, JELLYFIN_INFO);
    });
    expect((await jellyfin(server.url, { retryBaseDelayMs: 1 }).getSystemInfo()).Id).toBe('a'.repeat(32));
    expect(server.requests).toHaveLength(2);
    // The retry came no sooner than the server asked (a lower bound: a busy machine only makes it later).
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(1000 - 5);
  });

  it('429 with a Retry-After beyond the allowed wait fails at once', async () => {
    const server = await serve((_req, res) => json(res, 429, {}, { 'Retry-After': '120' }));
    const error = await rejection(jellyfin(server.url).getSystemInfo());
    expect(error).toMatchObject({ kind: 'http', status: 429, attempts: 1 });
    expect(error.message).toContain('Retry-After 120 s is longer than the 30000 ms allowed');
    expect(server.requests).toHaveLength(1);
  });

  it('a persistent 500 gives up after the configured attempts, with the server text', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('Error processing request.');
    });
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _e, cb) => (lines.push(chunk.toString()), cb()) }));
    const error = await rejection(jellyfin(server.url, { retries: 2, logger }).getUsers());
    expect(error).toMatchObject({ kind: 'http', status: 500, attempts: 3 });
    expect(error.message).toBe('GET /Users: HTTP 500 Internal Server Error: Error processing request. (gave up after 3 attempts)');
    expect(server.requests).toHaveLength(3);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ path: '/Users', status: 500, attempt: 1, msg: expect.stringContaining('retrying') });
    expect(lines.join('')).not.toContain(KEY);
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [400, 'http'],
  ] as const)('%i is never retried (%s)', async (status, kind) => {
    const server = await serve((_req, res) => {
      res.writeHead(status);
      res.end();
    });
    const error = await rejection(jellyfin(server.url, { retries: 5 }).getSessions());
    expect(error).toMatchObject({ kind, status, attempts: 1, path: '/Sessions' });
    expect(error.message).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('POST (Playback Reporting) is not retried; 404 means the plugin is missing', async () => {
    const server = await serve((_req, res, n) => {
      if (n === 1) return json(res, 503, {});
      res.writeHead(404);
      res.end();
    });
    const client = createMediaServerClient({ kind: 'emby', url: server.url, apiKey: KEY, ...FAST });
    expect(await rejection(client.submitPlaybackReportingQuery('SELECT 1'))).toMatchObject({ kind: 'http', status: 503, attempts: 1 });
    const missing = await rejection(client.submitPlaybackReportingQuery('SELECT 1'));
    expect(missing.kind).toBe('not_found');
    expect(missing.message).toBe(
      'POST /emby/user_usage_stats/submit_custom_query: the Playback Reporting plugin is not installed (HTTP 404)',
    );
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ CustomQueryString: 'SELECT 1', ReplaceUserId: false });
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('an address where nothing listens is a network error, also for the probe', async () => {
    const server = await serve(() => undefined);
    const url = server.url;
    await server.close();
    const error = await rejection(jellyfin(url, { retries: 1 }).getSystemInfo());
    expect(error).toMatchObject({ kind: 'network', attempts: 2 });
    expect(error.message).toMatch(/could not connect to 127\.0\.0\.1:\d+ \(connection refused\)/);
    expect((await rejection(probeMediaServer(url, KEY, { retries: 0 }))).kind).toBe('network');
  });
});

describe('paging safeguards', () => {
  it('stops at a short page even when the total promises more', async () => {
    const server = await serve((req, res) => {
      const start = Number(new URL(req.url!, 'http://x').searchParams.get('startIndex'));
      const n = start === 0 ? 3 : 1;
      const items = Array.from({ length: n }, (_, i) => ({ Id: String(start + i).padStart(32, '0'), Type: 'Movie' }));
      json(res, 200, { Items: items, TotalRecordCount: 1000, StartIndex: start });
    });
    const seen: number[] = [];
    for await (const page of jellyfin(server.url).iterateItems({}, { pageSize: 3 })) seen.push(page.items.length);
    expect(seen).toEqual([3, 1]);
    expect(server.requests).toHaveLength(2);
  });

  it('a StartIndex echo that disagrees is invalid_response', async () => {
    const server = await serve((_req, res) =>
      json(res, 200, { Items: [{ Id: 'a'.repeat(32), Type: 'Movie' }], TotalRecordCount: 5, StartIndex: 0 }),
    );
    const pages = jellyfin(server.url).iterateItems({}, { pageSize: 1 });
    expect((await pages.next()).value).toMatchObject({ startIndex: 0, totalRecordCount: 5 });
    const error = await rejection(pages.next());
    expect(error.message).toBe('GET /Items: asked for StartIndex 1, got 0');
  });
});

describe('concurrency and cancellation', () => {
  it('never has more requests in flight than the limit; the rest wait in line', async () => {
    const server = await serve((_req, res) => setTimeout(() => json(res, 200, JELLYFIN_INFO), 40));
    const client = jellyfin(server.url, { maxConcurrency: 2 });
    const calls = Array.from({ length: 8 }, () => client.getPublicSystemInfo());
    expect(client.load).toEqual({ inFlight: 2, waiting: 6 });
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.ServerName)).toEqual(Array(8).fill('Den'));
    expect(server.maxInFlight).toBe(2);
    expect(client.load).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('an abort cancels the request in flight and the one waiting for a slot, with the caller’s reason', async () => {
    // The server holds every request until the test ends, so the first is surely still in flight at the abort.
    const server = await serve(() => undefined);
    const client = jellyfin(server.url, { maxConcurrency: 1, timeoutMs: 600_000 });
    const controller = new AbortController();
    const inFlight = client.getSystemInfo({ signal: controller.signal });
    const waiting = client.getUsers({ signal: controller.signal });
    await waitFor('the first request to arrive', () => server.requests.length === 1);
    expect(client.load).toEqual({ inFlight: 1, waiting: 1 });
    const reason = new Error('shutting down');
    controller.abort(reason);
    await expect(inFlight).rejects.toBe(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(server.requests.map((r) => r.url)).toEqual(['/System/Info']);
    expect(client.load).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('an abort ends a retry backoff at once', async () => {
    const server = await serve((_req, res) => json(res, 503, {}));
    // A ten-minute backoff: only the abort can end the call before the test's own timeout.
    const client = jellyfin(server.url, { retries: 5, retryBaseDelayMs: 600_000, retryMaxDelayMs: 600_000 });
    const controller = new AbortController();
    const call = client.getSessions({ signal: controller.signal });
    // The 503 was read and the slot given back: the call is in its backoff.
    await waitFor('the first answer, read', () => server.requests.length === 1 && client.load.inFlight === 0);
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow('stop');
    expect(server.requests).toHaveLength(1);
  });
});
