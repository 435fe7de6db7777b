// Emby flavor (contract §7): /emby prefix, /Users/Query, /Library/VirtualFolders/Query, numeric ids,
// no StartIndex, Emby session shape; answers validate against the Emby 4.8.11 OpenAPI schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from './index.js';
import { Client, findNulls, start, validateSchema, type ItemsPage } from './testing.test-helpers.js';

let sim: RunningSimulator;
let api: Client;
let userId: string;

beforeAll(async () => {
  sim = await start({ flavor: 'emby' });
  api = new Client(sim, { 'X-Emby-Token': sim.apiKey }, '/emby');
  userId = sim.control.users().find((u) => u.isAdministrator)!.id;
  const movie = sim.control.itemIds('Movie', 1)[0]!;
  sim.control.startPlay({ userId, itemId: movie, client: 'emby-theater', method: 'Transcode' });
  sim.control.connect({ userId, client: 'emby-web' });
  sim.control.advance(10_000);
});
afterAll(async () => sim.stop());

describe('Emby flavor', () => {
  it.each([
    ['/System/Info/Public', 'PublicSystemInfo'],
    ['/System/Info', 'SystemInfo'],
    ['/Users/Query', 'QueryResult_UserDto'],
    ['/Library/VirtualFolders/Query', 'QueryResult_VirtualFolderInfo'],
    ['/Library/MediaFolders', 'QueryResult_BaseItemDto'],
    [
      '/Items?Recursive=true&Limit=40&Fields=DateCreated,MediaSources,MediaStreams,Genres,Path,ProviderIds,ParentId',
      'QueryResult_BaseItemDto',
    ],
    ['/Sessions', 'Session.SessionInfo[]'],
    ['/Plugins', 'Plugins.PluginInfo[]'],
    ['/System/ActivityLog/Entries', 'QueryResult_ActivityLogEntry'],
    ['/Devices', 'QueryResult_Devices.DeviceInfo'],
  ])('%s validates as %s', async (path, schema) => {
    const r = await api.get(path);
    expect(r.status).toBe(200);
    expect(validateSchema('emby', schema, r.json)).toEqual([]);
    expect(findNulls(r.json)).toEqual([]);
  });

  it('identifies as Emby: no ProductName, version 4.8.x', async () => {
    const r = await api.get<Record<string, unknown>>('/System/Info/Public', {});
    expect(r.json.ProductName).toBeUndefined();
    expect(r.json.Version).toMatch(/^4\.8\./);
    expect(r.json.LocalAddresses).toBeDefined();
  });

  it('item ids are numeric strings; query results have no StartIndex', async () => {
    const r = await api.get<ItemsPage>('/Items?Recursive=true&IncludeItemTypes=Movie&StartIndex=5&Limit=5');
    expect(r.json.StartIndex).toBeUndefined();
    expect(r.json.Items.length).toBe(5);
    for (const i of r.json.Items) expect(i.Id).toMatch(/^\d+$/);
    expect(r.json.TotalRecordCount).toBe(sim.control.counts().movies);
  });

  it('Jellyfin-only routes are absent; Emby routes exist', async () => {
    expect((await api.get('/Users')).status).toBe(404);
    expect((await api.get('/Library/VirtualFolders')).status).toBe(404);
    expect((await api.get(`/Items/Latest?UserId=${userId}`)).status).toBe(404);
    const latest = await api.get<unknown[]>(`/Users/${userId}/Items/Latest?Limit=5`);
    expect(latest.status).toBe(200);
    expect(latest.json.length).toBeLessThanOrEqual(5);
    const me = await api.get('/Users/Me');
    expect(me.status).toBe(500);
    expect(me.text).toBe('Unrecognized Guid format.');
  });

  it('sessions carry the Emby fields and not the Jellyfin-only ones', async () => {
    const s = (await api.get<Record<string, any>[]>('/Sessions')).json; // eslint-disable-line @typescript-eslint/no-explicit-any
    const playing = s.find((x) => x.NowPlayingItem)!;
    expect(playing.InternalDeviceId).toBeTypeOf('number');
    expect(playing.IsActive).toBeUndefined();
    expect(playing.LastPlaybackCheckIn).toBeUndefined();
    expect(playing.TranscodingInfo.HardwareAccelerationType).toBeUndefined();
    expect(playing.TranscodingInfo.TranscodeReasons.length).toBeGreaterThan(0);
    expect(playing.NowPlayingItem.Id).toMatch(/^\d+$/);
    expect(playing.PlayState.PositionTicks).toBe(10 * 10_000_000);
  });

  it('accepts api_key and the Emby Authorization scheme; answers without the /emby prefix too', async () => {
    const anon = new Client(sim, {}, '/emby');
    expect((await anon.get(`/Items?Limit=0&api_key=${sim.apiKey}`)).status).toBe(200);
    expect(
      (
        await anon.get('/Items?Limit=0', {
          Authorization: `Emby UserId="${userId}", Client="x", Device="y", DeviceId="z", Version="1", Token="${sim.apiKey}"`,
        })
      ).status,
    ).toBe(200);
    expect((await anon.get('/Items?Limit=0')).status).toBe(401);
    expect((await new Client(sim).get('/Items?Limit=0')).status).toBe(200);
  });

  it('the Emby plugin table has PauseDuration, RemoteAddress and TranscodeReasons', async () => {
    const r = await api.post<{ colums: string[]; results: string[][] }>('/user_usage_stats/submit_custom_query', {
      CustomQueryString: 'SELECT ItemId, PauseDuration, RemoteAddress, TranscodeReasons FROM PlaybackActivity',
    });
    expect(r.json.colums).toEqual(['ItemId', 'PauseDuration', 'RemoteAddress', 'TranscodeReasons']);
    expect(r.json.results[0]?.[0]).toMatch(/^\d+$/);
    expect(r.json.results[0]?.[3]?.length).toBeGreaterThan(0);
  });
});
