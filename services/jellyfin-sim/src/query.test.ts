// /Items paging, filter and sort semantics (contract §4), case-insensitive parameter names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from './index.js';
import { Client, start, type ItemsPage } from './testing.test-helpers.js';

let sim: RunningSimulator;
let api: Client;

beforeAll(async () => {
  sim = await start({ scale: 'small' });
  api = new Client(sim);
});
afterAll(async () => sim.stop());

const items = async (q: string): Promise<ItemsPage> => {
  const r = await api.get<ItemsPage>(`/Items?${q}`);
  expect(r.status, q).toBe(200);
  return r.json;
};

describe('/Items paging', () => {
  it('limit=0 returns no items and the full count; the count matches the control API', async () => {
    const page = await items('Recursive=true&Limit=0');
    expect(page.Items).toEqual([]);
    expect(page.TotalRecordCount).toBe(sim.control.counts().items);
    expect(page.StartIndex).toBe(0);
  });

  it('StartIndex echoes the request and pages tile the full result without gaps or repeats', async () => {
    const all = await items('recursive=true&includeItemTypes=Movie&sortBy=SortName&sortOrder=Ascending');
    expect(all.Items.length).toBe(all.TotalRecordCount);
    expect(all.TotalRecordCount).toBe(sim.control.counts().movies);
    const ids: unknown[] = [];
    for (let start = 0; start < all.TotalRecordCount; start += 97) {
      const p = await items(`recursive=true&includeItemTypes=Movie&sortBy=SortName&sortOrder=Ascending&startIndex=${start}&limit=97`);
      expect(p.StartIndex).toBe(start);
      expect(p.TotalRecordCount).toBe(all.TotalRecordCount);
      ids.push(...p.Items.map((i) => i.Id));
    }
    expect(ids).toEqual(all.Items.map((i) => i.Id));
  });

  it('a start index past the end gives no items and the full total', async () => {
    const p = await items('recursive=true&includeItemTypes=Movie&startIndex=100000&limit=10');
    expect(p.Items).toEqual([]);
    expect(p.TotalRecordCount).toBe(sim.control.counts().movies);
    expect(p.StartIndex).toBe(100000);
  });

  it('enableTotalRecordCount=false reports the page length', async () => {
    const p = await items('recursive=true&includeItemTypes=Episode&limit=7&enableTotalRecordCount=false');
    expect(p.Items.length).toBe(7);
    expect(p.TotalRecordCount).toBe(7);
  });

  it('parameter names are case-insensitive and list parameters accept repeated keys', async () => {
    const a = await items('recursive=true&includeItemTypes=Movie,Series&limit=5&sortBy=DateCreated&sortOrder=Descending');
    const b = await items('RECURSIVE=true&IncludeItemTypes=Movie&includeitemtypes=Series&LIMIT=5&SortBy=DateCreated&SORTORDER=Descending');
    expect(b).toEqual(a);
    expect(a.TotalRecordCount).toBe(sim.control.counts().movies + sim.control.counts().series);
  });

  it('unknown item types are dropped silently; type names are case-insensitive', async () => {
    const p = await items('recursive=true&includeItemTypes=movie,NotAType&limit=0');
    expect(p.TotalRecordCount).toBe(sim.control.counts().movies);
  });
});

describe('/Items filters', () => {
  it('without recursive, only direct children of parentId; with it, all descendants', async () => {
    const seriesId = sim.control.itemIds('Series', 1)[0] as string;
    const direct = await items(`parentId=${seriesId}`);
    expect(direct.Items.every((i) => i.Type === 'Season')).toBe(true);
    expect(direct.TotalRecordCount).toBeGreaterThan(0);
    const deep = await items(`parentId=${seriesId}&recursive=true&includeItemTypes=Episode`);
    expect(deep.TotalRecordCount).toBeGreaterThan(direct.TotalRecordCount);
    expect(deep.Items.every((i) => i.Type === 'Episode' && i.SeriesId === seriesId)).toBe(true);
  });

  it('a library ItemId + recursive + type counts that library only', async () => {
    const folders = await api.get<Record<string, unknown>[]>('/Library/VirtualFolders');
    const movies = folders.json.find((f) => f.CollectionType === 'movies') as Record<string, unknown>;
    const mixed = folders.json.find((f) => f.CollectionType === 'mixed') as Record<string, unknown>;
    const inMovies = await items(`parentId=${movies.ItemId as string}&recursive=true&includeItemTypes=Movie&limit=0`);
    const inMixed = await items(`parentId=${mixed.ItemId as string}&recursive=true&includeItemTypes=Movie&limit=0`);
    expect(inMovies.TotalRecordCount + inMixed.TotalRecordCount).toBe(sim.control.counts().movies);
    expect(inMixed.TotalRecordCount).toBeGreaterThan(0);
  });

  it('no parentId and not recursive, with an API key, lists the library folders', async () => {
    const p = await items('');
    expect(p.Items.map((i) => i.Type).every((t) => t === 'CollectionFolder' || t === 'ManualPlaylistsFolder')).toBe(true);
  });

  it('ids accepts 32-hex and dashed GUIDs', async () => {
    const [a, b] = sim.control.itemIds('Movie', 2) as [string, string];
    const dashed = `${b.slice(0, 8)}-${b.slice(8, 12)}-${b.slice(12, 16)}-${b.slice(16, 20)}-${b.slice(20)}`.toUpperCase();
    const p = await items(`ids=${a},${dashed}`);
    expect(p.Items.map((i) => i.Id).sort()).toEqual([a, b].sort());
    const single = await api.get<Record<string, unknown>>(`/Items/${dashed}`);
    expect(single.json.Id).toBe(b);
  });

  it('excludeItemTypes removes kinds', async () => {
    const all = await items('recursive=true&limit=0');
    const without = await items('recursive=true&excludeItemTypes=Episode,Audio&limit=0');
    expect(all.TotalRecordCount - without.TotalRecordCount).toBe(sim.control.counts().episodes + sim.control.counts().tracks);
  });

  it('minDateLastSaved finds changed items only', async () => {
    const now = new Date(sim.control.clock.now()).toISOString();
    const before = await items(`recursive=true&minDateLastSaved=${now}&limit=0`);
    expect(before.TotalRecordCount).toBe(0);
    const [id] = sim.control.itemIds('Movie', 1) as [string];
    sim.control.advance(1000);
    sim.control.updateItem(id, { name: 'Renamed Film' });
    const after = await items(`recursive=true&minDateLastSaved=${now}`);
    expect(after.Items.map((i) => i.Id)).toEqual([id]);
    expect(after.Items[0]?.Name).toBe('Renamed Film');
  });

  it('sortBy DateCreated descending orders by the DateCreated field', async () => {
    const p = await items('recursive=true&includeItemTypes=Movie&sortBy=DateCreated&sortOrder=Descending&limit=50&fields=DateCreated');
    const dates = p.Items.map((i) => Date.parse(i.DateCreated as string));
    expect([...dates].sort((x, y) => y - x)).toEqual(dates);
  });

  it('multiple sort keys: series name then season then episode', async () => {
    const p = await items('recursive=true&includeItemTypes=Episode&sortBy=SeriesSortName,ParentIndexNumber,IndexNumber&limit=200');
    const keys = p.Items.map((i) => [String(i.SeriesName).toLowerCase(), i.ParentIndexNumber as number, i.IndexNumber as number] as const);
    for (let i = 1; i < keys.length; i++) {
      const [a, b] = [keys[i - 1], keys[i]] as [(typeof keys)[0], (typeof keys)[0]];
      const cmp = a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2];
      expect(cmp).toBeLessThanOrEqual(0);
    }
  });

  it('optional fields appear only when asked for', async () => {
    const bare = await items('recursive=true&includeItemTypes=Movie&limit=3');
    for (const it of bare.Items) {
      for (const f of ['DateCreated', 'Path', 'MediaSources', 'Genres', 'Overview', 'ProviderIds', 'ParentId'])
        expect(it[f], f).toBeUndefined();
      expect(it.RunTimeTicks).toBeTypeOf('number');
      expect(it.ImageTags).toBeTypeOf('object');
    }
    const full = await items(
      'recursive=true&includeItemTypes=Movie&limit=3&fields=DateCreated,Path,MediaSources,Genres,ProviderIds,ParentId',
    );
    for (const it of full.Items) {
      for (const f of ['DateCreated', 'Path', 'MediaSources', 'Genres', 'ProviderIds', 'ParentId']) expect(it[f], f).toBeDefined();
    }
  });

  it('deleted items disappear and can be re-added with the same id', async () => {
    const [id] = sim.control.itemIds('Movie', 1) as [string];
    const before = await items('recursive=true&includeItemTypes=Movie&limit=0');
    sim.control.deleteItem(id);
    expect((await api.get(`/Items/${id}`)).status).toBe(404);
    const during = await items('recursive=true&includeItemTypes=Movie&limit=0');
    expect(during.TotalRecordCount).toBe(before.TotalRecordCount - 1);
    sim.control.addItem({ id, type: 'Movie', name: 'Back Again', productionYear: 2001 });
    const again = await api.get<Record<string, unknown>>(`/Items/${id}`);
    expect(again.json.Name).toBe('Back Again');
    expect((await items('recursive=true&includeItemTypes=Movie&limit=0')).TotalRecordCount).toBe(before.TotalRecordCount);
  });

  it('a user token sees the user views without parentId, and only permitted libraries', async () => {
    const restricted = sim.control.users().find((u) => !u.enableAllFolders && !u.isDisabled);
    expect(restricted).toBeDefined();
    const { accessToken } = sim.control.userToken(restricted!.id);
    const user = new Client(sim, { Authorization: `MediaBrowser Token="${accessToken}"` });
    const views = await user.get<ItemsPage>('/Items');
    expect(views.json.Items.length).toBeLessThan(6);
    const visible = new Set(views.json.Items.map((i) => i.Id));
    for (const f of restricted!.enabledFolders) expect(visible.has(f)).toBe(true);
    const movies = await user.get<ItemsPage>('/Items?recursive=true&includeItemTypes=Movie&limit=0');
    const total = sim.control.counts().movies;
    expect(movies.json.TotalRecordCount).toBeLessThanOrEqual(total);
    const folders = (await api.get<{ ItemId: string }[]>('/Library/VirtualFolders')).json.map((f) => f.ItemId);
    const forbidden = folders.find((f) => !restricted!.enabledFolders.includes(f) && sim.control.item(f)?.collectionType !== 'boxsets');
    expect(forbidden).toBeDefined();
    const r = await user.get(`/Items?parentId=${forbidden}&recursive=true&limit=1`);
    expect(r.status).toBe(401);
    expect(r.text).toBe('Error processing request.');
  });
});

describe('other list endpoints', () => {
  it('/Shows/{id}/Episodes counts before paging and filters by season', async () => {
    const seriesId = sim.control.itemIds('Series', 3)[2] as string;
    const all = await api.get<ItemsPage>(`/Shows/${seriesId}/Episodes`);
    const page = await api.get<ItemsPage>(`/Shows/${seriesId}/Episodes?startIndex=1&limit=2`);
    expect(page.json.TotalRecordCount).toBe(all.json.TotalRecordCount);
    expect(page.json.StartIndex).toBe(1);
    expect(page.json.Items.map((i) => i.Id)).toEqual(all.json.Items.slice(1, 3).map((i) => i.Id));
    const s1 = await api.get<ItemsPage>(`/Shows/${seriesId}/Episodes?season=1`);
    expect(s1.json.Items.every((i) => i.ParentIndexNumber === 1)).toBe(true);
    expect((await api.get(`/Shows/${sim.control.itemIds('Movie', 1)[0]}/Episodes`)).status).toBe(404);
  });

  it('/Items/Latest needs a user (404 with a bare API key) and groups episodes into series', async () => {
    expect((await api.get('/Items/Latest')).status).toBe(404);
    const admin = sim.control.users()[0]!;
    const latest = await api.get<Record<string, unknown>[]>(`/Items/Latest?userId=${admin.id}&limit=30`);
    expect(latest.status).toBe(200);
    expect(Array.isArray(latest.json)).toBe(true);
    expect(latest.json.length).toBeLessThanOrEqual(30);
    // a lone new episode stays an episode; several collapse into their series with ChildCount
    for (const i of latest.json) {
      if (i.Type === 'Series') expect(i.ChildCount as number).toBeGreaterThan(1);
      expect(['Movie', 'Series', 'Episode', 'MusicAlbum', 'Audio']).toContain(i.Type);
    }
    expect(latest.json.some((i) => i.Type === 'Series')).toBe(true);
    const ungrouped = await api.get<Record<string, unknown>[]>(
      `/Users/${admin.id}/Items/Latest?groupItems=false&includeItemTypes=Episode&limit=5`,
    );
    expect(ungrouped.json.map((i) => i.Type)).toEqual(['Episode', 'Episode', 'Episode', 'Episode', 'Episode']);
  });
});
