import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '@reelstat/jellyfin-sim';
import { freePort } from '@reelstat/core/test-support/test-kit.js';
import { startApiHarness, digest, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

async function htmlServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>My router</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(['jellyfin', 'emby'] as const)('first-run setup against the %s simulator', (flavor) => {
  let sim: Simulator;
  let harness: ApiHarness;
  let token: string;
  beforeAll(async () => {
    sim = await startSimulator({ flavor, scale: 'tiny', seed: 7 });
    harness = await startApiHarness();
  });
  afterAll(async () => {
    await harness.stop();
    await sim.stop();
  });

  it('refuses to link a server before the administrator exists', async () => {
    const res = await harness.call('POST', '/auth/configSetup', { body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: 'Create the administrator account first' });
  });

  it('reports each error of the setup catalogue and saves nothing', async () => {
    token = (
      (await harness.call('POST', '/auth/createuser', { body: { username: 'admin', password: digest('secret-1') } })).body as {
        token: string;
      }
    ).token;
    // Between the two steps, linking needs the token /auth/createuser returned.
    const anonymous = await harness.call('POST', '/auth/configSetup', { body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'unauthorized' });
    const wrongKey = await harness.call('POST', '/auth/configSetup', { token, body: { JF_HOST: sim.url, JF_API_KEY: 'wrong-key' } });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body).toEqual({
      status: 401,
      code: 'media_server_unauthorized',
      message: 'The media server rejected the API key',
      error: 'The media server rejected the API key',
      errorMessage: 'The media server rejected the API key',
    });

    const closedPort = await freePort();
    const unreachable = await harness.call('POST', '/auth/configSetup', {
      token,
      body: { JF_HOST: `http://127.0.0.1:${closedPort}`, JF_API_KEY: sim.apiKey },
    });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body).toMatchObject({
      code: 'media_server_unreachable',
      message: expect.stringContaining(`Could not reach the media server at http://127.0.0.1:${closedPort}`),
    });
    // What the user can act on, and no network detail (refused, timed out …) of the host it tried.
    expect((unreachable.body as { message: string }).message).toBe(
      `Could not reach the media server at http://127.0.0.1:${closedPort}: check the address, that the server is running, and that Reelstat's host can reach it`,
    );

    const html = await htmlServer();
    const notMediaServer = await harness.call('POST', '/auth/configSetup', { token, body: { JF_HOST: html.url, JF_API_KEY: sim.apiKey } });
    await html.close();
    expect(notMediaServer.status).toBe(404);
    expect(notMediaServer.body).toMatchObject({
      code: 'media_server_not_found',
      message: expect.stringContaining(`No Jellyfin or Emby server answers at ${html.url}`),
    });
    expect((notMediaServer.body as { message: string }).message).toBe(
      `No Jellyfin or Emby server answers at ${html.url}: check the address and port (Jellyfin and Emby use 8096 by default)`,
    );

    const badUrl = await harness.call('POST', '/auth/configSetup', { token, body: { JF_HOST: 'ftp://nas/media', JF_API_KEY: sim.apiKey } });
    expect(badUrl.status).toBe(400);

    expect((await harness.call('GET', '/auth/isConfigured')).body).toMatchObject({ state: 1 });
    const [row] = await harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM media_servers');
    expect(row!.n).toBe(0);
  });

  it('links the server, detecting its kind, and stores the key encrypted', async () => {
    const res = await harness.call('POST', '/auth/configSetup/', { token, body: { JF_HOST: `${sim.url}/`, JF_API_KEY: sim.apiKey } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: flavor });
    expect((await harness.call('GET', '/auth/isConfigured')).body).toMatchObject({ state: 2 });
    const [row] = await harness.app.runtime.db.query<{ kind: string; url: string; api_key_encrypted: string; version: string }>(
      'SELECT * FROM media_servers',
    );
    expect(row).toMatchObject({ kind: flavor, url: sim.url });
    expect(row!.api_key_encrypted).toMatch(/^v1\./);
    expect(row!.api_key_encrypted).not.toContain(sim.apiKey);

    const config = await harness.call('GET', '/api/getconfig', { token });
    expect(config.body).toMatchObject({
      JF_HOST: sim.url,
      APP_USER: 'admin',
      REQUIRE_LOGIN: true,
      IS_JELLYFIN: flavor === 'jellyfin',
      MANAGED_BY: 'ui',
      settings: { GEOLITE_ACCOUNT_ID: null, GEOLOCATION_ENABLED: false },
    });
    expect(JSON.stringify(config.body)).not.toContain(sim.apiKey);
  });

  it('closes first-run routes once set up', async () => {
    expect((await harness.call('POST', '/auth/createuser', { body: { username: 'late', password: digest('whatever') } })).status).toBe(403);
    const relink = await harness.call('POST', '/auth/configSetup', { token, body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } });
    expect(relink.status).toBe(403);
  });

  it('lists the media server administrators and saves the preferred one and the external URL', async () => {
    const admins = await harness.call('GET', '/proxy/getAdminUsers', { token });
    expect(admins.status).toBe(200);
    const list = admins.body as Array<{ Id: string; Name: string }>;
    expect(list.length).toBeGreaterThan(0);
    const expected = sim.control
      .users()
      .filter((user) => user.isAdministrator)
      .map((user) => user.name)
      .sort();
    expect(list.map((user) => user.Name).sort()).toEqual(expected);

    await harness.call('POST', '/api/setPreferredAdmin', { token, body: { userid: list[0]!.Id, username: list[0]!.Name } });
    await harness.call('POST', '/api/setExternalUrl/', { token, body: { ExternalUrl: 'https://media.example.org/' } });
    expect((await harness.call('GET', '/api/getconfig', { token })).body).toMatchObject({
      settings: { EXTERNAL_URL: 'https://media.example.org', preferred_admin: { userid: list[0]!.Id, username: list[0]!.Name } },
    });
  });

  it('changes the link from the settings only after checking it', async () => {
    const wrong = await harness.call('POST', '/api/setconfig/', { token, body: { JF_HOST: sim.url, JF_API_KEY: 'nope' } });
    expect(wrong.status).toBe(401);
    const ok = await harness.call('POST', '/api/setconfig/', { token, body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } });
    expect(ok.status).toBe(200);
    const [row] = await harness.app.runtime.db.query<{ n: number }>('SELECT count(*)::int AS n FROM media_servers');
    expect(row!.n).toBe(1);
  });
});

describe('configuration from the environment (GitOps)', () => {
  it('creates the administrator and links the media server at start-up, read-only in the settings', async () => {
    const sim = await startSimulator({ scale: 'tiny', seed: 3 });
    const harness = await startApiHarness({
      ADMIN_USERNAME: 'ops',
      ADMIN_PASSWORD: 'from-a-secret',
      MEDIA_SERVER_URL: sim.url,
      MEDIA_SERVER_API_KEY: sim.apiKey,
    });
    try {
      expect((await harness.call('GET', '/auth/isConfigured')).body).toMatchObject({ state: 2 });
      const login = await harness.call('POST', '/auth/login', { body: { username: 'ops', password: digest('from-a-secret') } });
      expect(login.status).toBe(200);
      const token = (login.body as { token: string }).token;
      expect((await harness.call('GET', '/api/getconfig', { token })).body).toMatchObject({ JF_HOST: sim.url, MANAGED_BY: 'environment' });
      const change = await harness.call('POST', '/api/setconfig', { token, body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey } });
      expect(change.status).toBe(409);
      expect(change.body).toMatchObject({ message: 'The media server is managed by environment variables; change it there' });
    } finally {
      await harness.stop();
      await sim.stop();
    }
  });
});

describe('update check', () => {
  it('reports a newer release from the feed', async () => {
    const feed = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ tag_name: 'v99.1.0' }));
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    const harness = await startApiHarness({ UPDATE_CHECK_URL: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/latest` });
    try {
      const { token } = (await harness.call('POST', '/auth/createuser', { body: { username: 'a', password: digest('secret-1') } }))
        .body as { token: string };
      const res = await harness.call('GET', '/api/CheckForUpdates', { token });
      expect(res.body).toEqual({
        current_version: expect.any(String),
        latest_version: '99.1.0',
        update_available: true,
        message: 'Reelstat 99.1.0 is available',
      });
    } finally {
      await harness.stop();
      feed.close();
    }
  });

  it('answers when the feed never answers, saying it could not check in time', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer(() => undefined);
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const harness = await startApiHarness({ UPDATE_CHECK_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/latest` });
    try {
      const { token } = (await harness.call('POST', '/auth/createuser', { body: { username: 'a', password: digest('secret-1') } }))
        .body as { token: string };
      // Without its own timeout the call would hang until the test's timeout; the message says which path ran.
      const res = await harness.call('GET', '/api/CheckForUpdates', { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ update_available: false, message: 'Could not check for updates (no answer in time)' });
    } finally {
      await harness.stop();
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });
});
