import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { startApiHarness, type ApiHarness, createAdmin } from '@reelstat/server/test-support/api-harness.js';

describe('image proxies and geolocation', () => {
  let harness: ApiHarness;
  let bare: ApiHarness;
  let sim: RunningSimulator;
  let token: string;
  let bareToken: string;
  let geo: Server;
  const geoCalls: Array<{ url: string; auth: string | undefined }> = [];

  beforeAll(async () => {
    // A stand-in for MaxMind's GeoLite2 web service on 127.0.0.1, answering its City document shape.
    geo = createServer((req, res) => {
      geoCalls.push({ url: req.url ?? '', auth: req.headers.authorization });
      if (req.url?.endsWith('/8.8.8.8')) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            city: { geoname_id: 1, names: { en: 'Mountain View', fr: 'Mountain View' } },
            country: { iso_code: 'US', names: { en: 'United States' } },
            postal: { code: '94043' },
            traits: { autonomous_system_organization: 'GOOGLE', ip_address: '8.8.8.8' },
            location: { latitude: 37.4, longitude: -122.07, accuracy_radius: 1000 },
          }),
        );
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ code: 'IP_ADDRESS_NOT_FOUND', error: 'not found' }));
      }
    });
    await new Promise<void>((resolve) => geo.listen(0, '127.0.0.1', resolve));
    const geoUrl = `http://127.0.0.1:${(geo.address() as AddressInfo).port}/geoip/v2.1/city`;
    sim = await startSimulator({ scale: 'tiny', seed: 3, clock: 'virtual' });
    harness = await startApiHarness({ GEOLITE_ACCOUNT_ID: '123456', GEOLITE_LICENSE_KEY: 'licence', GEOLITE_URL: geoUrl });
    bare = await startApiHarness();
    for (const [h, set] of [
      [harness, (t: string) => (token = t)],
      [bare, (t: string) => (bareToken = t)],
    ] as const) {
      set(await createAdmin(h));
    }
    await harness.app.runtime.services.mediaServers.saveDefault({ name: 'sim', kind: 'jellyfin', url: sim.url, apiKey: sim.apiKey });
  });
  afterAll(async () => {
    await harness.stop();
    await bare.stop();
    await sim.stop();
    await new Promise((resolve) => geo.close(resolve));
  });

  describe('images', () => {
    it('streams an item poster at the asked size with cache headers, without a token', async () => {
      const id = sim.control.itemIds('Movie', 1)[0]!;
      const res = await fetch(`${harness.url}/proxy/Items/Images/Primary?id=${id}&fillWidth=120&fillHeight=180&quality=60`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([120, 180]);
      const tagged = await fetch(`${harness.url}/proxy/Items/Images/Backdrop?id=${id}&maxWidth=300&tag=abc123`);
      expect([tagged.status, tagged.headers.get('cache-control')]).toEqual([200, 'private, max-age=31536000, immutable']);
    });

    it('streams user avatars and answers 404 for unknown images', async () => {
      const users = sim.control.users();
      const withImage = users.find((user) => user.hasImage)!;
      const without = users.find((user) => !user.hasImage)!;
      const ok = await fetch(`${harness.url}/proxy/Users/Images/Primary?id=${withImage.id}&fillWidth=64&fillHeight=64`);
      expect([ok.status, ok.headers.get('content-type')]).toEqual([200, 'image/png']);
      expect((await fetch(`${harness.url}/proxy/Users/Images/Primary?id=${without.id}`)).status).toBe(404);
      expect((await fetch(`${harness.url}/proxy/Items/Images/Primary?id=0123456789abcdef0123456789abcdef`)).status).toBe(404);
    });

    it('refuses anything that is not an id or a bounded size', async () => {
      for (const query of [
        'id=../../System/Info',
        'id=abc%2F..%2Fx',
        'id=abc&fillWidth=5000',
        'id=abc&quality=0',
        'id=abc&tag=%22%3E',
        'fillWidth=10',
      ]) {
        const res = await harness.call('GET', `/proxy/Items/Images/Primary?${query}`);
        expect(res.status, query).toBe(400);
      }
    });

    it('draws device icons itself', async () => {
      const res = await fetch(`${harness.url}/proxy/web/assets/img/devices/?devicename=${encodeURIComponent('Chrome on Linux')}`);
      expect(res.headers.get('content-type')).toContain('image/svg+xml');
      expect(await res.text()).toContain('aria-label="chrome"');
      expect(await (await fetch(`${harness.url}/proxy/web/assets/img/devices/?devicename=iPhone`)).text()).toContain('aria-label="apple"');
    });
  });

  describe('geolocation', () => {
    const locate = (h: ApiHarness, ipAddress: unknown, t: string) =>
      h.call('POST', '/utils/geolocateIp', { body: { ipAddress }, token: t });

    it('answers the GeoLite2 fields for a public address, once per address (cached)', async () => {
      const first = await locate(harness, '8.8.8.8', token);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        city: { names: { en: 'Mountain View' } },
        country: { names: { en: 'United States' }, iso_code: 'US' },
        postal: { code: '94043' },
        traits: { autonomous_system_organization: 'GOOGLE' },
        location: { latitude: 37.4, longitude: -122.07 },
      });
      expect((await locate(harness, '8.8.8.8', token)).body).toEqual(first.body);
      const calls = geoCalls.filter((call) => call.url.endsWith('/8.8.8.8'));
      expect(calls).toHaveLength(1);
      expect(calls[0]!.auth).toBe(`Basic ${Buffer.from('123456:licence').toString('base64')}`);
    });

    it('refuses private addresses and bad input with 400, unknown addresses with 404', async () => {
      for (const address of ['10.1.2.3', '172.20.0.1', '192.168.1.10', '127.0.0.1', '::1', 'fd00::1']) {
        const res = await locate(harness, address, token);
        expect(res.status, address).toBe(400);
        expect((res.body as { message: string }).message).toContain('private');
      }
      expect((await locate(harness, 'not-an-ip', token)).status).toBe(400);
      expect((await locate(harness, 42, token)).status).toBe(400);
      expect((await locate(harness, '1.1.1.1', token)).status).toBe(404);
    });

    it('says clearly when geolocation is not configured', async () => {
      const res = await locate(bare, '8.8.8.8', bareToken);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'geolocation_not_configured' });
      expect((res.body as { message: string }).message).toContain('GEOLITE_ACCOUNT_ID');
    });
  });
});
