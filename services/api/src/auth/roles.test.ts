import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { startSimulator } from '@reelstat/jellyfin-sim';
import { openDatabase, recordPlays, type Database, type PlayToRecord } from '@reelstat/core';
import { testLogger } from '@reelstat/core/test-support/test-services.js';
import { createAdmin, startApiHarness, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';
import { findApiRole } from '../roles/api-role.js';
import type { AnyRoute } from '../http/api-routes.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

interface Sample {
  body?: Record<string, unknown>;
  query?: Record<string, string>;
}

/**
 * A valid request for every route a viewer may call, made from the user id it is about (own or another).
 * A route admitting viewers without a sample here fails the test: add one when you add such a route.
 */
const VIEWER_SAMPLES: Record<string, (userId: string) => Sample> = {
  'GET /auth/me': () => ({}),
  'POST /auth/renew': () => ({}),
  'GET /api/getHistory': () => ({}),
  'GET /api/getLibraries': () => ({}),
  'POST /api/getUserHistory': (userid) => ({ body: { userid } }),
  'POST /api/getUserDetails': (userid) => ({ body: { userid } }),
  'POST /api/getActivityTimeLine': (userId) => ({ body: { userId, libraries: ['movies'] } }),
  'POST /stats/getUserLastPlayed': (userid) => ({ body: { userid } }),
  'POST /stats/getGlobalUserStats': (userid) => ({ body: { userid, hours: 24 } }),
  'GET /stats/getGenreUserStats': (userid) => ({ query: { userid } }),
  'POST /stats/getMostViewedByType': () => ({ body: { type: 'Movie', days: 30 } }),
  'POST /stats/getMostPopularByType': () => ({ body: { type: 'Movie', days: 30 } }),
  'POST /stats/getMostViewedLibraries': () => ({ body: { days: 30 } }),
  'POST /stats/getMostUsedClient': () => ({ body: { days: 30 } }),
  'POST /stats/getPlaybackMethodStats': () => ({ body: { days: 30 } }),
  'GET /stats/getLibraryOverview': () => ({}),
  'GET /stats/getViewsOverTime': () => ({ query: { days: '30' } }),
  'GET /stats/getViewsByDays': () => ({ query: { days: '30' } }),
  'GET /stats/getViewsByHour': () => ({ query: { days: '30' } }),
  'GET /api/exportHistory': (userId) => ({ query: { userId } }),
  'POST /api/exportHistory/ticket': (userId) => ({ query: { userId } }),
  'GET /api/getYearInReview': (userId) => ({ query: { year: String(new Date().getFullYear()), userId } }),
  'GET /api/getYearInReviewCard': (userId) => ({ query: { year: String(new Date().getFullYear()), userId } }),
  // 'own-plays': an item and a library the other user played too (m-o1 only by them).
  'POST /api/getItemDetails': () => ({ body: { Id: 'm-o1' } }),
  'POST /api/getSeasons': () => ({ body: { Id: 'm-o1' } }),
  'POST /api/getEpisodes': () => ({ body: { Id: 'm-o1' } }),
  'POST /api/getLibrary': () => ({ body: { libraryid: 'movies' } }),
  'POST /api/getItemHistory': () => ({ body: { itemid: 'm-o1' } }),
  'POST /api/getLibraryHistory': () => ({ body: { libraryid: 'movies' } }),
  'POST /stats/getGlobalItemStats': () => ({ body: { itemid: 'm-o1', hours: 24 } }),
  'POST /stats/getGlobalLibraryStats': () => ({ body: { libraryid: 'movies', hours: 24 } }),
};

const VIEWER_ACCESS = new Set(['own-user', 'signed-in', 'server-stats', 'own-plays']);
/** Input fields that name a user, a library or an item: a viewer must never reach another's data through them. */
const ID_FIELD = /^(user|library|item)?id$/i;

/** Every route as Express mounted it (the router's own stack), with its declaration. */
function mountedRoutes(harness: ApiHarness): Array<{ key: string; method: string; path: string; definition: AnyRoute }> {
  const routes = findApiRole(harness.app.roles)!.routes!;
  const stack = (routes.router as unknown as { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> }).stack;
  return stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods).map((method) => {
          const path = layer.route!.path;
          const definition = routes.definitions.find((d) => d.method === method && d.path === path);
          if (!definition) throw new Error(`${method} ${path} is mounted without a definition`);
          return { key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, definition };
        })
      : [],
  );
}

/** The property names a schema accepts, however deeply nested. */
function inputFields(schema: ZodType | undefined): string[] {
  if (!schema) return [];
  const names: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const properties = (node as { properties?: Record<string, unknown> }).properties;
    if (properties) names.push(...Object.keys(properties));
    for (const value of Object.values(node)) walk(value);
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  return names;
}

const withQuery = (path: string, query: Record<string, string> | undefined) =>
  query ? `${path}?${new URLSearchParams(query).toString()}` : path;

describe('every route × each role (admin, viewer, nobody)', () => {
  let sim: Simulator;
  let harness: ApiHarness;
  let db: Database;
  let adminToken: string;
  let viewerToken: string;
  let serverId: string;
  let viewerId: string;
  let otherId: string;

  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 21 });
    harness = await startApiHarness();
    adminToken = await createAdmin(harness);
    const linked = await harness.call('POST', '/auth/configSetup', {
      token: adminToken,
      body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey },
    });
    expect(linked.status).toBe(200);
    serverId = ((await harness.call('GET', '/api/mediaServers', { token: adminToken })).body as Array<{ Id: string }>)[0]!.Id;
    const viewer = sim.control.addUser({ name: 'Vera', password: 'vera-pass', isAdministrator: false });
    const other = sim.control.users().find((u) => u.id !== viewer.id && !u.isAdministrator)!;
    viewerId = viewer.id.replace(/-/g, '').toLowerCase();
    otherId = other.id.replace(/-/g, '').toLowerCase();
    const signedIn = await harness.call('POST', '/auth/mediaServerLogin', { body: { username: 'Vera', password: 'vera-pass' } });
    expect(signedIn.body).toMatchObject({ role: 'viewer' });
    viewerToken = (signedIn.body as { token: string }).token;

    db = openDatabase(harness.database.url, testLogger);
    await db.query(
      `INSERT INTO media_users (server_id, id, name, tracked) VALUES ($1, $2, 'Vera', true), ($1, $3, $4, true) ON CONFLICT DO NOTHING`,
      [serverId, viewerId, otherId, other.name],
    );
    await db.query(
      `INSERT INTO libraries (server_id, id, name, collection_type) VALUES ($1, 'movies', 'Movies', 'movies') ON CONFLICT DO NOTHING`,
      [serverId],
    );
    const play = (key: string, userId: string, userName: string, hoursAgo: number): PlayToRecord => ({
      serverId,
      playKey: key,
      source: 'monitor',
      userId,
      userName,
      // One item per play, so that the history shows each as its own row.
      itemId: `m-${key}`,
      itemName: `Film ${key}`,
      itemType: 'Movie',
      libraryId: 'movies',
      client: 'Jellyfin Web',
      remoteEndPoint: userId === viewerId ? '198.51.100.1' : '203.0.113.9',
      playMethod: 'DirectPlay',
      startedAt: new Date(Date.now() - hoursAgo * 3_600_000),
      playedSeconds: 600,
    });
    await recordPlays(db, [play('v1', viewerId, 'Vera', 2), play('v2', viewerId, 'Vera', 3), play('o1', otherId, other.name, 4)]);
    await db.query(
      `INSERT INTO items (server_id, id, library_id, type, name, path) VALUES
         ($1, 'm-v1', 'movies', 'Movie', 'Film v1', '/films/v1.mkv'), ($1, 'm-o1', 'movies', 'Movie', 'Film o1', '/films/o1.mkv')`,
      [serverId],
    );
  });

  afterAll(async () => {
    await db?.close();
    await harness?.stop();
    await sim?.stop();
  });

  const request = (key: string, token: string | undefined, sample: Sample, extraQuery?: Record<string, string>) => {
    const [method, path] = key.split(' ') as [string, string];
    const query = sample.query || extraQuery ? { ...sample.query, ...extraQuery } : undefined;
    return harness.call(method, withQuery(path, query), { token, body: method === 'GET' ? undefined : (sample.body ?? {}) });
  };

  it('declares every route with an access the middleware knows, and a sample for each one viewers may call', () => {
    const routes = mountedRoutes(harness);
    expect(routes.length).toBeGreaterThan(60);
    for (const { key, definition } of routes) {
      expect(['public', 'setup', 'admin', 'own-user', 'signed-in', 'server-stats', 'own-plays'], key).toContain(definition.access);
      if (VIEWER_ACCESS.has(definition.access))
        expect(VIEWER_SAMPLES[key], `${key} admits viewers: add it to VIEWER_SAMPLES`).toBeDefined();
      if (definition.access === 'own-user') expect(definition.userOf, `${key} is own-user without userOf`).toBeDefined();
    }
  });

  it('nobody: 401 on every route that needs a sign-in', async () => {
    for (const { key, definition } of mountedRoutes(harness)) {
      if (!VIEWER_ACCESS.has(definition.access) && definition.access !== 'admin') continue;
      const answer = await request(key.replace(/:(\w+)/g, 'x'), undefined, {});
      expect(answer.status, key).toBe(401);
    }
  });

  it('viewer: 403 on every administrators-only route, before reading any input', async () => {
    let refused = 0;
    for (const { key, definition } of mountedRoutes(harness)) {
      if (definition.access !== 'admin') continue;
      const answer = await request(key.replace(/:(\w+)/g, 'x'), viewerToken, {});
      expect([answer.status, (answer.body as { code?: string }).code], key).toEqual([403, 'forbidden']);
      refused++;
    }
    expect(refused).toBeGreaterThan(40);
  });

  it('viewer: 200 about themselves, 403 naming another user, another server or all servers', async () => {
    await harness.call('POST', '/api/signInSettings', {
      token: adminToken,
      body: { MEDIA_SERVER_SIGN_IN: { enabled: true, onlyUsers: [] }, VIEWERS_SEE_SERVER_STATS: true },
    });
    for (const { key, definition } of mountedRoutes(harness)) {
      if (!VIEWER_ACCESS.has(definition.access)) continue;
      const sample = VIEWER_SAMPLES[key]!;
      const own = await request(key, viewerToken, sample(viewerId));
      expect(own.status, `${key}: ${JSON.stringify(own.body)}`).toBe(200);
      if (definition.access === 'own-user') {
        const other = await request(key, viewerToken, sample(otherId));
        expect([other.status, (other.body as { message: string }).message], key).toEqual([403, 'Viewers see their own statistics only']);
      }
      if (definition.servers) {
        for (const elsewhere of ['all', '7f8c0c1e-0000-4000-8000-000000000000']) {
          const answer = await request(key, viewerToken, sample(viewerId), { serverId: elsewhere });
          expect([answer.status, (answer.body as { message: string }).message], `${key} serverId=${elsewhere}`).toEqual([
            403,
            'Viewers see their own media server only',
          ]);
        }
      }
    }
  });

  it('viewer: every call that takes a user, library or item id is refused or held to their own user', () => {
    const checked: string[] = [];
    for (const { key, definition } of mountedRoutes(harness)) {
      const fields = [...inputFields(definition.body), ...inputFields(definition.query), ...inputFields(definition.params)];
      if (!fields.some((field) => ID_FIELD.test(field))) continue;
      checked.push(key);
      // 'admin' routes answer a viewer 403 (test above); 'own-user' ones 403 for another user's id (test above);
      // 'own-plays' ones answer about the item or library with the viewer's own plays only (test below).
      expect(['admin', 'own-user', 'own-plays', 'public', 'setup'], key).toContain(definition.access);
      if (definition.access === 'public') expect(key, 'only the image proxies take ids without a sign-in').toMatch(/^GET \/proxy\//);
    }
    expect(checked).toEqual(
      expect.arrayContaining(['POST /api/getUserHistory', 'POST /api/getLibraryHistory', 'POST /api/getItemHistory']),
    );
    const ownPlays = mountedRoutes(harness)
      .filter((route) => route.definition.access === 'own-plays')
      .map((route) => route.key);
    expect(ownPlays.sort()).toEqual(
      [
        'POST /api/getItemDetails',
        'POST /api/getSeasons',
        'POST /api/getEpisodes',
        'POST /api/getLibrary',
        'POST /api/getItemHistory',
        'POST /api/getLibraryHistory',
        'POST /stats/getGlobalItemStats',
        'POST /stats/getGlobalLibraryStats',
      ].sort(),
    );
  });

  it("viewer: an item or library page's figures and plays are their own, everyone's figures only when shared", async () => {
    const share = (shared: boolean) =>
      harness.call('POST', '/api/signInSettings', {
        token: adminToken,
        body: { MEDIA_SERVER_SIGN_IN: { enabled: true, onlyUsers: [] }, VIEWERS_SEE_SERVER_STATS: shared },
      });
    const call = async (key: string, token: string) => (await request(key, token, VIEWER_SAMPLES[key]!(viewerId))).body as never;
    type Item = { Id: string; Path: string | null; FileName: string | null; times_played: number };
    type Page = { results: Array<{ UserId: string; RemoteEndPoint: string | null }> };
    await share(false);
    // The other user's film: its metadata, without the file's path, and none of their plays.
    const [item] = (await call('POST /api/getItemDetails', viewerToken)) as Item[];
    expect(item).toMatchObject({ Id: 'm-o1', Path: null, FileName: null, times_played: 0 });
    expect(((await call('POST /api/getItemDetails', adminToken)) as Item[])[0]).toMatchObject({ Path: '/films/o1.mkv', times_played: 1 });
    expect(((await call('POST /api/getItemHistory', viewerToken)) as Page).results).toEqual([]);
    expect(((await call('POST /api/getItemHistory', adminToken)) as Page).results).toHaveLength(1);
    expect(await call('POST /stats/getGlobalItemStats', viewerToken)).toMatchObject({ Plays: 0, total_playback_duration: 0 });
    expect(await call('POST /stats/getGlobalItemStats', adminToken)).toMatchObject({ Plays: 1, total_playback_duration: 600 });
    // The library: the viewer's two plays, not the other user's, and no "last played" (it was theirs).
    const library = ((await call('POST /api/getLibraryHistory', viewerToken)) as Page).results;
    expect(library.map((row) => [row.UserId, row.RemoteEndPoint])).toEqual([
      [viewerId, '198.51.100.1'],
      [viewerId, '198.51.100.1'],
    ]);
    expect(await call('POST /stats/getGlobalLibraryStats', viewerToken)).toMatchObject({ Plays: 2, total_playback_duration: 1200 });
    expect(await call('POST /stats/getGlobalLibraryStats', adminToken)).toMatchObject({ Plays: 3 });
    expect(await call('POST /api/getLibrary', viewerToken)).toMatchObject({ Plays: 2, ItemName: null, LastActivity: null });
    // Shared: everyone's figures, still no one else's plays or the file's path.
    await share(true);
    expect(((await call('POST /api/getItemDetails', viewerToken)) as Item[])[0]).toMatchObject({ Path: null, times_played: 1 });
    expect(await call('POST /stats/getGlobalItemStats', viewerToken)).toMatchObject({ Plays: 1 });
    expect(((await call('POST /api/getItemHistory', viewerToken)) as Page).results).toEqual([]);
  });

  it("viewer: the history is their own plays only, without other people's addresses", async () => {
    const answer = await harness.call('GET', '/api/getHistory', { token: viewerToken });
    const rows = (answer.body as { results: Array<{ UserId: string; RemoteEndPoint: string | null }> }).results;
    expect(rows.map((row) => [row.UserId, row.RemoteEndPoint])).toEqual([
      [viewerId, '198.51.100.1'],
      [viewerId, '198.51.100.1'],
    ]);
    // A filter naming another user narrows the viewer's own plays (to nothing); it never widens them.
    const filters = encodeURIComponent(JSON.stringify([{ field: 'UserId', value: [otherId] }]));
    const filtered = await harness.call('GET', `/api/getHistory?filters=${filters}`, { token: viewerToken });
    expect([filtered.status, (filtered.body as { results: unknown[] }).results]).toEqual([200, []]);
    const admin = await harness.call('GET', '/api/getHistory', { token: adminToken });
    expect((admin.body as { results: unknown[] }).results).toHaveLength(3);
  });

  it('viewer: the server-wide cards only when the administrator shares them', async () => {
    const settings = (shared: boolean) =>
      harness.call('POST', '/api/signInSettings', {
        token: adminToken,
        body: { MEDIA_SERVER_SIGN_IN: { enabled: true, onlyUsers: [] }, VIEWERS_SEE_SERVER_STATS: shared },
      });
    await settings(false);
    const cards = mountedRoutes(harness).filter((route) => route.definition.access === 'server-stats');
    expect(cards.length).toBeGreaterThanOrEqual(9);
    for (const { key } of cards) {
      expect((await request(key, viewerToken, VIEWER_SAMPLES[key]!(viewerId))).status, key).toBe(403);
      expect((await request(key, adminToken, VIEWER_SAMPLES[key]!(viewerId))).status, key).toBe(200);
    }
    expect((await harness.call('GET', '/auth/me', { token: viewerToken })).body).toEqual({
      username: 'Vera',
      role: 'viewer',
      method: 'media-server',
      mediaUser: { serverId, userId: viewerId },
      serverStats: false,
    });
    await settings(true);
    for (const { key } of cards) expect((await request(key, viewerToken, VIEWER_SAMPLES[key]!(viewerId))).status, key).toBe(200);
  });

  it('admin: no route refuses an administrator', async () => {
    for (const { key, definition } of mountedRoutes(harness)) {
      const sample = VIEWER_SAMPLES[key];
      if (sample) {
        expect((await request(key, adminToken, sample(otherId))).status, key).toBe(200);
        continue;
      }
      if (definition.access !== 'admin' || definition.method !== 'get') continue;
      // Reads only: a write sent with no input could change the instance the other cases run on.
      const answer = await request(key.replace(/:(\w+)/g, 'x'), adminToken, {});
      expect([401, 403], key).not.toContain(answer.status);
    }
  });

  it('lets a viewer onto socket.io (their events are filtered: socket/viewer-sessions.test.ts), refuses nobody', async () => {
    const { io } = await import('socket.io-client');
    const connect = (token: string | undefined) =>
      new Promise<string>((resolve) => {
        const socket = io(`http://127.0.0.1:${harness.app.port}`, {
          path: '/socket.io/',
          transports: ['websocket'],
          auth: { token },
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
    expect(await connect(viewerToken)).toBe('connected');
    expect(await connect(adminToken)).toBe('connected');
    expect(await connect(undefined)).toBe('unauthorized');
  });
});
