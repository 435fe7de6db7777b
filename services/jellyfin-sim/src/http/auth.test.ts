// Authentication and authorization answers (contract §2 and §10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../index.js';
import { Client, start } from '../testing.test-helpers.js';
import { parseAuthorization } from './auth.js';

describe('Authorization header parsing', () => {
  it('reads MediaBrowser pairs, with or without quotes, URL-decoded, scheme case-insensitive', () => {
    expect(
      parseAuthorization('MediaBrowser Client="Stats%20Dash", Device="server", DeviceId="d-1", Version="1.0.0", Token="abc"', false),
    ).toEqual({
      client: 'Stats Dash',
      device: 'server',
      deviceId: 'd-1',
      version: '1.0.0',
      token: 'abc',
    });
    expect(parseAuthorization('mediabrowser Token=abc', false)?.token).toBe('abc');
    expect(parseAuthorization('Emby Token="abc"', false)).toBeUndefined();
    expect(parseAuthorization('Emby UserId="u", Token="abc"', true)).toEqual({ userId: 'u', token: 'abc' });
    expect(parseAuthorization('Bearer abc', true)).toBeUndefined();
  });
});

for (const legacyAuth of [true, false]) {
  describe(`auth with legacyAuth ${legacyAuth ? 'on' : 'off'}`, () => {
    let sim: RunningSimulator;
    let anon: Client;
    const key = 'test-api-key-0123456789abcdef';
    beforeAll(async () => {
      sim = await start({ legacyAuth });
      anon = new Client(sim, {});
    });
    afterAll(async () => sim.stop());

    it('no token → 401 with an empty body', async () => {
      const r = await anon.get('/Items?Recursive=true&Limit=0');
      expect(r.status).toBe(401);
      expect(r.text).toBe('');
    });

    it('unknown token → 401 with an empty body', async () => {
      const r = await anon.get('/Sessions', { Authorization: 'MediaBrowser Token="nope"' });
      expect(r.status).toBe(401);
      expect(r.text).toBe('');
    });

    it('anonymous routes need no token', async () => {
      expect((await anon.get('/System/Info/Public')).status).toBe(200);
      expect((await anon.get('/System/Ping')).status).toBe(200);
    });

    it('MediaBrowser header and ?ApiKey= always work', async () => {
      expect((await anon.get('/Items?Limit=0', { Authorization: `MediaBrowser Token="${key}"` })).status).toBe(200);
      expect((await anon.get(`/Items?Limit=0&ApiKey=${key}`)).status).toBe(200);
      expect((await anon.get(`/Items?Limit=0&apikey=${key}`)).status).toBe(200);
    });

    it(`legacy sources are ${legacyAuth ? 'accepted' : 'rejected'}`, async () => {
      const expected = legacyAuth ? 200 : 401;
      expect((await anon.get('/Items?Limit=0', { 'X-Emby-Token': key })).status).toBe(expected);
      expect((await anon.get('/Items?Limit=0', { 'X-MediaBrowser-Token': key })).status).toBe(expected);
      expect((await anon.get('/Items?Limit=0', { 'X-Emby-Authorization': `MediaBrowser Token="${key}"` })).status).toBe(expected);
      expect((await anon.get('/Items?Limit=0', { Authorization: `Emby Token="${key}"` })).status).toBe(expected);
      expect((await anon.get(`/Items?Limit=0&api_key=${key}`)).status).toBe(expected);
    });

    it('the /emby prefix is stripped as in Jellyfin 10.x', async () => {
      const r = await anon.get('/emby/System/Info/Public');
      expect(r.status).toBe(200);
      expect((r.json as Record<string, unknown>).ProductName).toBe('Jellyfin Server');
    });

    it('non-admin users get 403 on admin routes and when naming another user', async () => {
      const plain = sim.control.users().find((u) => !u.isAdministrator && !u.isDisabled)!;
      const admin = sim.control.users().find((u) => u.isAdministrator)!;
      const { accessToken } = sim.control.userToken(plain.id);
      const user = new Client(sim, { Authorization: `MediaBrowser Token="${accessToken}"` });
      for (const path of ['/Library/VirtualFolders', '/Library/MediaFolders', '/Plugins']) {
        const r = await user.get(path);
        expect(r.status, path).toBe(403);
        expect(r.text).toBe('');
      }
      expect((await user.post('/user_usage_stats/submit_custom_query', { CustomQueryString: 'SELECT 1' })).status).toBe(403);
      const other = await user.get(`/Items?userId=${admin.id}&recursive=true&limit=1`);
      expect(other.status).toBe(403);
      expect(other.text).toBe('Error processing request.');
      expect((await user.get(`/Items?userId=${plain.id}&recursive=true&limit=1`)).status).toBe(200);
      const me = await user.get<Record<string, unknown>>('/Users/Me');
      expect(me.json.Id).toBe(plain.id);
    });

    it('/Users/Me with an API key → 400; unknown user → 404', async () => {
      const api = new Client(sim);
      expect((await api.get('/Users/Me')).status).toBe(400);
      expect((await api.get('/Users/0123456789abcdef0123456789abcdef')).status).toBe(404);
    });

    it('login needs Client/Device/DeviceId/Version and the right password; disabled users are refused', async () => {
      const admin = sim.control.users().find((u) => u.isAdministrator)!;
      const full = 'MediaBrowser Client="Reelstat", Device="ci", DeviceId="auth-test", Version="1.0.0"';
      expect(
        (
          await anon.post(
            '/Users/AuthenticateByName',
            { Username: admin.name, Pw: 'password' },
            { Authorization: 'MediaBrowser Client="x"' },
          )
        ).status,
      ).toBe(400);
      expect((await anon.post('/Users/AuthenticateByName', { Username: admin.name, Pw: 'wrong' }, { Authorization: full })).status).toBe(
        401,
      );
      const ok = await anon.post<{ AccessToken: string; User: { Id: string }; SessionInfo: { Client: string } }>(
        '/Users/AuthenticateByName',
        { Username: admin.name, Pw: 'password' },
        { Authorization: full },
      );
      expect(ok.status).toBe(200);
      expect(ok.json.User.Id).toBe(admin.id);
      expect(ok.json.SessionInfo.Client).toBe('Reelstat');
      const token = ok.json.AccessToken;
      expect((await anon.get('/Sessions', { Authorization: `MediaBrowser Token="${token}"` })).status).toBe(200);
      sim.control.updateUser(admin.id, { isDisabled: true });
      expect((await anon.get('/Sessions', { Authorization: `MediaBrowser Token="${token}"` })).status).toBe(401);
      sim.control.updateUser(admin.id, { isDisabled: false });
    });

    it('each user signs in with their own password; a user without one with an empty Pw; the name is case-insensitive', async () => {
      const full = 'MediaBrowser Client="Reelstat", Device="ci", DeviceId="per-user", Version="1.0.0"';
      const ann = sim.control.addUser({ name: `Ann-${legacyAuth}`, password: 'ann-secret' });
      const bo = sim.control.addUser({ name: `Bo-${legacyAuth}`, password: '' });
      const login = (Username: string, Pw: string | undefined) =>
        anon.post<{ User: { Id: string; HasPassword: boolean } }>(
          '/Users/AuthenticateByName',
          Pw === undefined ? { Username } : { Username, Pw },
          {
            Authorization: full,
          },
        );
      const annOk = await login(ann.name.toUpperCase(), 'ann-secret');
      expect([annOk.status, annOk.json.User.Id, annOk.json.User.HasPassword]).toEqual([200, ann.id, true]);
      expect((await login(ann.name, 'password')).status).toBe(401);
      expect((await login(ann.name, '')).status).toBe(401);
      const boOk = await login(bo.name, undefined);
      expect([boOk.status, boOk.json.User.Id, boOk.json.User.HasPassword]).toEqual([200, bo.id, false]);
      expect((await login(bo.name, 'ann-secret')).status).toBe(401);
      sim.control.updateUser(ann.id, { password: 'changed' });
      expect((await login(ann.name, 'ann-secret')).status).toBe(401);
      expect((await login(ann.name, 'changed')).status).toBe(200);
    });

    it('unknown routes → 404, handler errors → text "Error processing request."', async () => {
      const api = new Client(sim);
      expect((await api.get('/Nope/Nothing')).status).toBe(404);
      const bad = await api.get('/Items?startIndex=abc');
      expect(bad.status).toBe(400);
      expect(bad.text).toBe('Error processing request.');
      expect(bad.contentType).toMatch(/^text\/plain/);
    });
  });
}
