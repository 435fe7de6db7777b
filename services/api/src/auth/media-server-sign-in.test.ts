import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '@reelstat/jellyfin-sim';
import { openDatabase } from '@reelstat/core';
import { testLogger } from '@reelstat/core/test-support/test-services.js';
import { createAdmin, digest, startApiHarness, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

describe.each(['jellyfin', 'emby'] as const)('sign-in with a %s account', (flavor) => {
  let sim: Simulator;
  let harness: ApiHarness;
  let adminToken: string;
  const login = (username: string, password: string) => harness.call('POST', '/auth/mediaServerLogin', { body: { username, password } });

  beforeAll(async () => {
    sim = await startSimulator({ scale: 'tiny', seed: 3, flavor });
    harness = await startApiHarness();
    adminToken = await createAdmin(harness);
  });
  afterAll(async () => {
    await harness?.stop();
    await sim?.stop();
  });

  it('is offered only once a media server is linked', async () => {
    expect((await harness.call('GET', '/auth/signInMethods')).body).toEqual({
      mediaServer: { enabled: false, kind: null, name: null },
      oidc: null,
    });
    expect(await login('anyone', 'x')).toMatchObject({ status: 409 });
    const linked = await harness.call('POST', '/auth/configSetup', {
      token: adminToken,
      body: { JF_HOST: sim.url, JF_API_KEY: sim.apiKey },
    });
    expect(linked.status).toBe(200);
    expect((await harness.call('GET', '/auth/signInMethods')).body).toMatchObject({ mediaServer: { enabled: true, kind: flavor } });
  });

  it('a media-server administrator becomes admin; another user a viewer of their own statistics', async () => {
    const boss = sim.control.addUser({ name: 'Boss', password: 'boss-pass', isAdministrator: true });
    const kid = sim.control.addUser({ name: 'Kid', password: 'kid-pass', isAdministrator: false });
    const admin = await login('boss', 'boss-pass');
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ role: 'admin' });
    const adminAnswer = admin.body as { token: string };
    expect((await harness.call('GET', '/api/getconfig', { token: adminAnswer.token })).status).toBe(200);

    const viewer = await login('Kid', 'kid-pass');
    expect(viewer.body).toMatchObject({ role: 'viewer' });
    const token = (viewer.body as { token: string }).token;
    const me = (await harness.call('GET', '/auth/me', { token })).body as { mediaUser: { userId: string }; method: string; role: string };
    expect(me).toMatchObject({ role: 'viewer', method: 'media-server', mediaUser: { userId: kid.id.replace(/-/g, '').toLowerCase() } });
    expect((await harness.call('GET', '/api/getconfig', { token })).status).toBe(403);
    // A renewed token is still the viewer's.
    const renewed = (await harness.call('POST', '/auth/renew', { token })).body as { token: string };
    expect(((await harness.call('GET', '/auth/me', { token: renewed.token })).body as { role: string }).role).toBe('viewer');

    // Made administrator on the media server: admin here at the next sign-in.
    sim.control.updateUser(kid.id, { isAdministrator: true });
    expect((await login('Kid', 'kid-pass')).body).toMatchObject({ role: 'admin' });
    sim.control.updateUser(kid.id, { isAdministrator: false });
    expect(boss.isAdministrator).toBe(true);
  });

  it('never stores the password, and leaves no session open on the media server', async () => {
    const db = openDatabase(harness.database.url, testLogger);
    try {
      const rows = await db.query<Record<string, unknown>>('SELECT * FROM sign_in_accounts');
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(rows)).not.toMatch(/boss-pass|kid-pass/);
    } finally {
      await db.close();
    }
    expect(sim.control.sessions().filter((s) => s.client === 'Reelstat')).toEqual([]);
  });

  it('wrong password or unknown user: 401 with the usual message', async () => {
    for (const [username, password] of [
      ['Kid', 'wrong'],
      ['nobody-here', 'kid-pass'],
    ] as const) {
      const answer = await login(username, password);
      expect([answer.status, (answer.body as { message: string }).message]).toEqual([401, 'Invalid username or password']);
    }
  });

  it('can be limited to chosen users, or turned off; the local administrator keeps working', async () => {
    const kid = sim.control.users().find((u) => u.name === 'Kid')!;
    const boss = sim.control.users().find((u) => u.name === 'Boss')!;
    const set = (enabled: boolean, onlyUsers: string[]) =>
      harness.call('POST', '/api/signInSettings', {
        token: adminToken,
        body: { MEDIA_SERVER_SIGN_IN: { enabled, onlyUsers }, VIEWERS_SEE_SERVER_STATS: false },
      });
    expect((await set(true, [boss.id])).status).toBe(200);
    const refused = await login('Kid', 'kid-pass');
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([
      403,
      'This account may not sign in to Reelstat; ask the administrator',
    ]);
    expect((await login('Boss', 'boss-pass')).status).toBe(200);
    await set(false, []);
    expect((await login('Kid', 'kid-pass')).status).toBe(403);
    expect((await harness.call('GET', '/auth/signInMethods')).body).toMatchObject({ mediaServer: { enabled: false } });
    expect((await harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('secret-1') } })).status).toBe(200);
    await set(true, []);
    expect(kid.name).toBe('Kid');
  });

  it('server down: a clear 503 that points to the local administrator', async () => {
    await sim.stop();
    const answer = await login('Kid', 'kid-pass');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'media_server_unavailable' });
    expect((answer.body as { message: string }).message).toMatch(
      /could not check the password .*the local administrator can still sign in\.$/,
    );
    expect((await harness.call('POST', '/auth/login', { body: { username: 'admin', password: digest('secret-1') } })).status).toBe(200);
  });
});
