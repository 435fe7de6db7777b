// Every Jellyfin endpoint's answer validates against the official 10.11.11 OpenAPI schemas, with nulls omitted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from './index.js';
import { Client, findNulls, start, validateSchema, type ItemsPage } from './testing.test-helpers.js';

let sim: RunningSimulator;
let api: Client;
let adminId: string;
let seriesId: string;

beforeAll(async () => {
  sim = await start();
  api = new Client(sim);
  adminId = sim.control.users().find((u) => u.isAdministrator)?.id as string;
  seriesId = sim.control.itemIds('Series', 1)[0] as string;
  // One transcode, one direct play and one idle session so /Sessions covers every shape.
  const [movie] = sim.control.itemIds('Movie', 1);
  const [ep] = sim.control.itemIds('Episode', 1);
  sim.control.startPlay({ userId: adminId, itemId: ep as string, client: 'jellyfin-web', method: 'Transcode' });
  sim.control.startPlay({ userId: adminId, itemId: movie as string, client: 'android-tv', method: 'DirectPlay' });
  sim.control.connect({ userId: adminId, client: 'kodi' });
  sim.control.advance(15_000);
});

afterAll(async () => sim.stop());

function expectValid(schema: string, body: unknown): void {
  expect(validateSchema('jellyfin', schema, body)).toEqual([]);
  expect(findNulls(body)).toEqual([]);
}

describe('Jellyfin 10.11.11 contract', () => {
  it.each([
    ['/System/Info/Public', 'PublicSystemInfo'],
    ['/System/Info', 'SystemInfo'],
    ['/System/Configuration', 'ServerConfiguration'],
    ['/Users', 'UserDto[]'],
    ['/Library/VirtualFolders', 'VirtualFolderInfo[]'],
    ['/Library/MediaFolders', 'BaseItemDtoQueryResult'],
    [
      '/Items?recursive=true&limit=50&fields=DateCreated,Path,MediaSources,MediaStreams,Genres,Overview,ProviderIds,ParentId,ChildCount,RecursiveItemCount,PrimaryImageAspectRatio,Studios,People,Tags,SortName,Etag,Width,Height,DateLastMediaAdded,CumulativeRunTimeTicks,CanDelete,CanDownload,ExternalUrls,RemoteTrailers,LocalTrailerCount,IsHD,MediaSourceCount',
      'BaseItemDtoQueryResult',
    ],
    [
      '/Items?recursive=true&includeItemTypes=Audio,MusicAlbum,MusicArtist,BoxSet,Playlist&fields=MediaSources,Genres,ChildCount',
      'BaseItemDtoQueryResult',
    ],
    ['/Items?recursive=true&includeItemTypes=Episode,Season,Series&limit=40&fields=MediaSources,DateCreated', 'BaseItemDtoQueryResult'],
    ['/Plugins', 'PluginInfo[]'],
    ['/Sessions', 'SessionInfoDto[]'],
    ['/Sessions?activeWithinSeconds=960', 'SessionInfoDto[]'],
    ['/Items/Counts', 'ItemCounts'],
    ['/System/ActivityLog/Entries?limit=20', 'ActivityLogEntryQueryResult'],
    ['/Devices', 'DeviceInfoDtoQueryResult'],
  ])('%s → %s', async (path, schema) => {
    const r = await api.get(path);
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/json; charset=utf-8');
    expectValid(schema, r.json);
  });

  it('/System/Ping is the JSON string "Jellyfin Server"', async () => {
    const r = await api.get('/System/Ping', {});
    expect(r.status).toBe(200);
    expect(r.json).toBe('Jellyfin Server');
  });

  it('user-scoped routes (modern and hidden legacy forms) validate', async () => {
    const checks: [string, string][] = [
      [`/Users/${adminId}`, 'UserDto'],
      [`/UserViews?userId=${adminId}`, 'BaseItemDtoQueryResult'],
      [`/Users/${adminId}/Views`, 'BaseItemDtoQueryResult'],
      [`/Items/Latest?userId=${adminId}&fields=DateCreated`, 'BaseItemDto[]'],
      [`/Users/${adminId}/Items/Latest?fields=DateCreated`, 'BaseItemDto[]'],
      [`/Users/${adminId}/Items?recursive=true&limit=20&fields=MediaSources`, 'BaseItemDtoQueryResult'],
      [`/Items?userId=${adminId}&recursive=true&includeItemTypes=Movie&limit=20`, 'BaseItemDtoQueryResult'],
      [`/UserItems/Resume?userId=${adminId}`, 'BaseItemDtoQueryResult'],
      [`/Shows/${seriesId}/Seasons?userId=${adminId}`, 'BaseItemDtoQueryResult'],
      [`/Shows/${seriesId}/Episodes?userId=${adminId}&fields=MediaSources`, 'BaseItemDtoQueryResult'],
    ];
    for (const [path, schema] of checks) {
      const r = await api.get(path);
      expect(r.status, path).toBe(200);
      expect(validateSchema('jellyfin', schema, r.json), path).toEqual([]);
      expect(findNulls(r.json), path).toEqual([]);
    }
  });

  it('single items of every kind validate with all fields', async () => {
    const kinds = ['Movie', 'Series', 'Season', 'Episode', 'MusicArtist', 'MusicAlbum', 'Audio', 'BoxSet', 'Playlist'] as const;
    for (const kind of kinds) {
      const [id] = sim.control.itemIds(kind, 1);
      const a = await api.get(`/Items/${id}?userId=${adminId}`);
      expect(a.status, kind).toBe(200);
      expect(validateSchema('jellyfin', 'BaseItemDto', a.json), kind).toEqual([]);
      const b = await api.get(`/Users/${adminId}/Items/${id}`);
      expect(b.json).toEqual(a.json);
    }
  });

  it('the login answer validates as AuthenticationResult', async () => {
    const admin = sim.control.users().find((u) => u.id === adminId);
    const r = await api.post(
      '/Users/AuthenticateByName',
      { Username: admin?.name, Pw: 'password' },
      {
        Authorization: 'MediaBrowser Client="Reelstat", Device="ci", DeviceId="contract-test", Version="1.0.0"',
      },
    );
    expect(r.status).toBe(200);
    expectValid('AuthenticationResult', r.json);
  });

  it('ids are 32 lowercase hex digits and dates carry 7 fractional digits', async () => {
    const r = await api.get<ItemsPage>('/Items?recursive=true&limit=30&fields=DateCreated');
    for (const it of r.json.Items) {
      expect(it.Id).toMatch(/^[0-9a-f]{32}$/);
      expect(it.DateCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    }
    const s = await api.get<Record<string, unknown>[]>('/Sessions');
    for (const session of s.json) {
      expect(session.LastActivityDate).toMatch(/\.\d{7}Z$/);
      expect(session.Id).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('the activity log records playback starts, newest first', async () => {
    const r = await api.get<{ Items: { Type: string; UserId: string; Name: string; ItemId?: string }[]; TotalRecordCount: number }>(
      '/System/ActivityLog/Entries?hasUserId=true',
    );
    const types = r.json.Items.map((e) => e.Type);
    expect(types.filter((t) => t === 'VideoPlayback').length).toBe(2);
    expect(r.json.Items.every((e) => e.UserId === adminId)).toBe(true);
    expect(r.json.Items.find((e) => e.Type === 'VideoPlayback')?.Name).toMatch(/ is playing .+ on /);
    const devices = await api.get<{ Items: { AppName: string }[] }>('/Devices');
    expect(devices.json.Items.map((d) => d.AppName)).toEqual(expect.arrayContaining(['Android TV', 'Jellyfin Web', 'Kodi']));
  });

  it('the custom-query endpoint answers the plugin shape', async () => {
    const r = await api.post<{ colums: string[]; results: string[][]; message: string }>('/user_usage_stats/submit_custom_query', {
      CustomQueryString: 'SELECT ItemName, PlayDuration FROM PlaybackActivity ORDER BY rowid',
      ReplaceUserId: false,
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['colums', 'message', 'results']);
    expect(r.json.colums).toEqual(['ItemName', 'PlayDuration']);
    expect(r.json.results.length).toBe(2);
    for (const row of r.json.results) for (const cell of row) expect(typeof cell).toBe('string');
  });
});
