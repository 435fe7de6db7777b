// The control API over HTTP, faults, images and the CLI argument parser.
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayRecord, RunningSimulator } from './index.js';
import { Client, SECOND, start, validateSchema, type ItemsPage } from './testing.test-helpers.js';
import { parseArgs } from './cli.js';

let sim: RunningSimulator;
let api: Client;
let ctl: Client;

beforeAll(async () => {
  sim = await start();
  api = new Client(sim);
  ctl = new Client(sim, { Authorization: `MediaBrowser Token="${sim.apiKey}"` }, '/__control');
});
afterAll(async () => sim.stop());

/** A promise and whether it has settled yet (to show one answer came while another was still held back). */
function settles<T>(promise: Promise<T>): { promise: Promise<T>; settled(): boolean } {
  let done = false;
  const tracked = promise.finally(() => (done = true));
  return { promise: tracked, settled: () => done };
}

function pngSize(buf: Buffer): [number, number] {
  expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

describe('HTTP control API', () => {
  it('requires the API key', async () => {
    expect((await new Client(sim, {}, '/__control').get('/state')).status).toBe(401);
    const { accessToken } = sim.control.userToken(sim.control.users()[0]!.id);
    expect((await new Client(sim, { Authorization: `MediaBrowser Token="${accessToken}"` }, '/__control').get('/state')).status).toBe(401);
  });

  it('scripts a play end to end and serves the ground truth', async () => {
    const user = (await ctl.get<{ id: string }[]>('/users')).json[0]!;
    const [movie] = (await ctl.get<string[]>('/items?type=Movie&limit=1')).json;
    const started = await ctl.post<PlayRecord>('/plays', {
      userId: user.id,
      itemId: movie,
      client: 'kodi',
      method: 'DirectStream',
      startPositionTicks: 10 * SECOND,
    });
    expect(started.status).toBe(201);
    const id = started.json.playId;
    await ctl.post('/clock/advance', { ms: 30_000 });
    await ctl.post(`/plays/${id}/pause`);
    await ctl.post('/clock/advance', { ms: 5_000 });
    await ctl.post(`/plays/${id}/resume`);
    await ctl.post(`/plays/${id}/seek`, { positionSeconds: 600 });
    await ctl.post('/clock/advance', { ms: 10_000 });
    const stopped = await ctl.post<PlayRecord>(`/plays/${id}/stop`);
    expect(stopped.json).toMatchObject({
      secondsUnpaused: 40,
      secondsPaused: 5,
      pauseCount: 1,
      seekCount: 1,
      startPositionTicks: 10 * SECOND,
      endPositionTicks: 610 * SECOND,
      endReason: 'stopped',
      client: 'Kodi',
      playMethod: 'DirectStream',
    });
    const truth = await ctl.get<PlayRecord[]>('/ground-truth');
    expect(truth.json.find((p) => p.playId === id)).toEqual(stopped.json);
    expect((await ctl.post('/plays/play-999999/pause')).status).toBe(400);
  });

  it('adds, renames and deletes items and users', async () => {
    const added = await ctl.post<{ id: string }>('/items', { type: 'Movie', name: 'Control Film', productionYear: 1999 });
    expect(added.status).toBe(201);
    expect((await api.get<Record<string, unknown>>(`/Items/${added.json.id}`)).json.Name).toBe('Control Film');
    await ctl.request('PATCH', `/items/${added.json.id}`, { name: 'Renamed Film' });
    expect((await api.get<Record<string, unknown>>(`/Items/${added.json.id}`)).json.Name).toBe('Renamed Film');
    await ctl.request('DELETE', `/items/${added.json.id}`);
    expect((await api.get(`/Items/${added.json.id}`)).status).toBe(404);
    const u = await ctl.post<{ id: string }>('/users', { name: 'zed', isAdministrator: false });
    expect((await api.get<{ Name: string }[]>('/Users')).json.some((x) => x.Name === 'zed')).toBe(true);
    await ctl.request('PATCH', `/users/${u.json.id}`, { name: 'zedd' });
    expect((await api.get<{ Name: string }>(`/Users/${u.json.id}`)).json.Name).toBe('zedd');
    await ctl.request('DELETE', `/users/${u.json.id}`);
    expect((await api.get(`/Users/${u.json.id}`)).status).toBe(404);
  });

  it('deleting a series removes its seasons and episodes', async () => {
    const seriesId = sim.control.itemIds('Series', 1)[0]!;
    const before = (await api.get<ItemsPage>(`/Items?parentId=${seriesId}&recursive=true&limit=0`)).json.TotalRecordCount;
    const total = (await api.get<ItemsPage>('/Items?recursive=true&limit=0')).json.TotalRecordCount;
    const removed = (await ctl.request<{ removed: string[] }>('DELETE', `/items/${seriesId}`)).json.removed;
    expect(removed.length).toBeGreaterThanOrEqual(before + 1);
    expect((await api.get<ItemsPage>('/Items?recursive=true&limit=0')).json.TotalRecordCount).toBe(total - before - 1);
  });
});

describe('faults', () => {
  it('latency delays media-server answers but not the control API', async () => {
    await sim.control.setFaults({ latencyMs: 2000 });
    const delayed = settles(api.get('/System/Info/Public'));
    // The control API answers while the delayed answer is still held back.
    expect((await ctl.get('/state')).status).toBe(200);
    expect(delayed.settled()).toBe(false);
    expect((await delayed.promise).status).toBe(200);
    await sim.control.clearFaults();
  });

  it('error rate 1 answers 500 "Error processing request."', async () => {
    await sim.control.setFaults({ errorRate: 1 });
    const r = await api.get('/Items?limit=1');
    expect(r.status).toBe(500);
    expect(r.text).toBe('Error processing request.');
    await sim.control.setFaults({ errorRate: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await api.get('/Items?limit=1')).status);
    expect(statuses.filter((s) => s === 500).length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
    await sim.control.clearFaults();
  });

  it('slow pages delay paged lists only', async () => {
    await sim.control.setFaults({ slowPagesMs: 2000 });
    const paged = settles(api.get('/Items?recursive=true&limit=5'));
    // An unpaged answer comes while the paged one is still held back.
    expect((await api.get('/System/Info')).status).toBe(200);
    expect(paged.settled()).toBe(false);
    expect((await paged.promise).status).toBe(200);
    await sim.control.clearFaults();
  });

  it('down as 503 answers text/html; down as refused closes the port; both recover', async () => {
    await sim.control.setFaults({ down: '503' });
    const r = await api.get('/System/Info/Public');
    expect(r.status).toBe(503);
    expect(r.contentType).toMatch(/^text\/html/);
    await sim.control.setFaults({ down: 'refused' });
    await expect(fetch(`${sim.url}/System/Info/Public`)).rejects.toThrow();
    await sim.control.setFaults({ down: false });
    expect((await api.get('/System/Info/Public')).status).toBe(200);
  });

  it('a restart with downtime refuses connections, then comes back with no sessions', async () => {
    sim.control.connect({ userId: sim.control.users()[0]!.id });
    const restart = settles(sim.control.restartServer({ downMs: 1500 }));
    // Some call during the downtime is refused (polled, so a slow machine cannot miss the window by a sleep).
    let refused = false;
    while (!refused && !restart.settled())
      refused = await fetch(`${sim.url}/System/Info/Public`).then(
        () => false,
        () => true,
      );
    expect(refused).toBe(true);
    await restart.promise;
    expect((await api.get<unknown[]>('/Sessions')).json).toEqual([]);
  });
});

describe('images', () => {
  it('item images are real PNGs at the requested size, capped', async () => {
    const movie = sim.control
      .itemIds('Movie')
      .map((id) => sim.control.item(id)!)
      .find((m) => m.images.includes('Primary'))!;
    const get = async (q: string): Promise<Buffer> => {
      const r = await fetch(`${sim.url}/Items/${movie.id}/Images/Primary${q}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/png');
      return Buffer.from(await r.arrayBuffer());
    };
    expect(pngSize(await get('?fillWidth=120&fillHeight=180&quality=90'))).toEqual([120, 180]);
    expect(pngSize(await get('?maxWidth=200'))).toEqual([200, 300]);
    expect(pngSize(await get(''))).toEqual([1000, 1500]);
    expect(pngSize(await get('?fillWidth=9000&fillHeight=9000'))).toEqual([2000, 2000]);
    const png = await get('?fillWidth=4&fillHeight=2');
    const idat = png.indexOf('IDAT');
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    expect(raw.length).toBe(2 * (1 + 4 * 3));
    expect((await fetch(`${sim.url}/Items/${movie.id}/Images/Banner`)).status).toBe(movie.images.includes('Banner') ? 200 : 404);
    expect((await fetch(`${sim.url}/Items/00000000000000000000000000000000/Images/Primary`)).status).toBe(404);
  });

  it('user avatars exist only for users with an image; device icons are served', async () => {
    const withImage = sim.control.users().find((u) => u.hasImage);
    const without = sim.control.users().find((u) => !u.hasImage);
    if (withImage) {
      const r = await fetch(`${sim.url}/UserImage?userId=${withImage.id}&maxWidth=64`);
      expect(pngSize(Buffer.from(await r.arrayBuffer()))).toEqual([64, 64]);
      expect((await fetch(`${sim.url}/Users/${withImage.id}/Images/Primary`)).status).toBe(200);
      expect((await api.get<{ PrimaryImageTag?: string }>(`/Users/${withImage.id}`)).json.PrimaryImageTag).toMatch(/^[0-9a-f]{32}$/);
    }
    if (without) {
      expect((await fetch(`${sim.url}/UserImage?userId=${without.id}`)).status).toBe(404);
      expect((await api.get<{ PrimaryImageTag?: string }>(`/Users/${without.id}`)).json.PrimaryImageTag).toBeUndefined();
    }
    expect(withImage ?? without).toBeDefined();
    expect((await fetch(`${sim.url}/UserImage`)).status).toBe(400);
    const icon = await fetch(`${sim.url}/web/assets/img/devices/kodi.png`);
    expect(pngSize(Buffer.from(await icon.arrayBuffer()))).toEqual([128, 128]);
    const svg = await fetch(`${sim.url}/web/assets/img/devices/chrome.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(await svg.text()).toMatch(/^<svg /);
    expect((await fetch(`${sim.url}/web/assets/img/devices/toaster.svg`)).status).toBe(404);
  });
});

describe('camelCase profile', () => {
  it('honours Accept: application/json; profile="CamelCase" but leaves dictionary keys alone', async () => {
    const r = await api.get<{ items: Record<string, unknown>[]; totalRecordCount: number; startIndex: number }>(
      '/Items?recursive=true&includeItemTypes=Movie&limit=2&fields=ProviderIds',
      { Authorization: `MediaBrowser Token="${sim.apiKey}"`, Accept: 'application/json; profile="CamelCase"' },
    );
    expect(r.json.totalRecordCount).toBe(sim.control.counts().movies);
    expect(r.json.startIndex).toBe(0);
    const first = r.json.items[0]!;
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.keys(first.providerIds as object)).toContain('Tmdb');
    expect(Object.keys(first.imageTags as object)).toContain('Primary');
  });
});

describe('CLI arguments', () => {
  it('parses every documented option', () => {
    expect(
      parseArgs([
        '--port',
        '8097',
        '--seed',
        '3',
        '--scale',
        'small',
        '--api-key',
        'K',
        '--flavor',
        'emby',
        '--legacy-auth',
        'off',
        '--traffic',
        'low',
      ]),
    ).toEqual({
      port: 8097,
      clock: 'real',
      seed: 3,
      scale: 'small',
      apiKey: 'K',
      flavor: 'emby',
      legacyAuth: false,
      traffic: 'low',
    });
    expect(parseArgs(['--scale=large'])).toMatchObject({ scale: 'large', port: 8096 });
  });
});

describe('traffic', () => {
  it('random viewing on the virtual clock is seeded: same seed, same plays', async () => {
    const run = async (): Promise<string> => {
      const s = await start({ seed: 5 });
      s.control.setTraffic('high');
      s.control.advance(30 * 60_000);
      s.control.setTraffic('off');
      const truth = s.control
        .groundTruth()
        .map((p) => [
          p.userId,
          p.itemId,
          p.client,
          p.playMethod,
          p.startedAtMs - s.control.groundTruth()[0]!.startedAtMs,
          p.secondsUnpaused,
          p.endReason,
        ]);
      await s.stop();
      return JSON.stringify(truth);
    };
    const a = await run();
    expect(JSON.parse(a).length).toBeGreaterThan(20);
    expect(await run()).toBe(a);
  });

  it('high traffic keeps dozens of consistent sessions that validate against the contract', async () => {
    const s = await start({ seed: 9, scale: 'small' });
    try {
      s.control.setTraffic('high');
      s.control.advance(20 * 60_000);
      const c = new Client(s);
      const sessions = (await c.get<{ NowPlayingItem?: unknown; Id: string }[]>('/Sessions')).json;
      expect(validateSchema('jellyfin', 'SessionInfoDto[]', sessions)).toEqual([]);
      const playing = sessions.filter((x) => x.NowPlayingItem);
      expect(playing.length).toBeGreaterThanOrEqual(20);
      const truth = s.control.groundTruth();
      const now = s.control.clock.now();
      const activeBySession = new Map<string, number>();
      for (const p of truth) {
        expect(p.secondsUnpaused + p.secondsPaused).toBeLessThanOrEqual(((p.endedAtMs ?? now) - p.startedAtMs) / 1000 + 0.01);
        if (p.active) activeBySession.set(p.sessionId, (activeBySession.get(p.sessionId) ?? 0) + 1);
      }
      expect([...activeBySession.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(truth.map((p) => p.playMethod))).toEqual(new Set(['DirectPlay', 'DirectStream', 'Transcode']));
      expect(new Set(truth.map((p) => p.client)).size).toBeGreaterThanOrEqual(5);
    } finally {
      await s.stop();
    }
  });
});
