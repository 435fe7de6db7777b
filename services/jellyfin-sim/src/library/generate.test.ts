// Determinism: one seed, one library; a different seed, a different library. Preset sizes.
import { describe, expect, it } from 'vitest';
import { generateLibrary, PRESETS } from './generate.js';
import { itemDto } from '../dto.js';

function snapshot(seed: number, flavor: 'jellyfin' | 'emby' = 'jellyfin'): string {
  const { store, serverId } = generateLibrary({ seed, scale: 'tiny', flavor });
  const ctx = { flavor, serverId, store, fields: new Set<string>(), allFields: true, enableUserData: false, enableImages: true };
  const items = [...store.items.values()].map((i) => itemDto(i, ctx));
  const users = [...store.users.values()];
  return JSON.stringify({ items, users, libraries: store.libraries });
}

describe('library generation', () => {
  it('the same seed gives an identical library (items, media streams, users, image tags)', () => {
    expect(snapshot(7)).toBe(snapshot(7));
  });

  it('a different seed gives a different library', () => {
    expect(snapshot(7)).not.toBe(snapshot(8));
  });

  it('tiny has ≈3 users, 4 media libraries plus collections and playlists, ≈200 items', () => {
    const { store } = generateLibrary({ seed: 1, scale: 'tiny', flavor: 'jellyfin' });
    expect(store.users.size).toBe(3);
    expect(store.libraries.map((l) => l.collectionType).sort()).toEqual(['boxsets', 'mixed', 'movies', 'music', 'playlists', 'tvshows']);
    const browsable = store.items.size - [...store.extrasByOwner.values()].reduce((n, s) => n + s.size, 0);
    expect(browsable).toBeGreaterThan(150);
    expect(browsable).toBeLessThan(300);
    expect([...store.users.values()].filter((u) => u.isAdministrator).length).toBe(1);
  });

  it('small has 20 users and ≈5,000 items with realistic variety', () => {
    const { store } = generateLibrary({ seed: 1, scale: 'small', flavor: 'jellyfin' });
    expect(store.users.size).toBe(PRESETS.small.users);
    expect(store.items.size).toBeGreaterThan(4000);
    expect(store.items.size).toBeLessThan(7000);
    const movies = [...(store.byKind.get('Movie') ?? [])].map((id) => store.get(id)!);
    const ranges = new Set(movies.map((m) => m.media?.video?.rangeType));
    expect(ranges.has('SDR') && ranges.has('HDR10') && ranges.has('DOVIWithHDR10')).toBe(true);
    const channels = new Set(movies.flatMap((m) => m.media?.audio.map((a) => a.profile.channels) ?? []));
    expect(channels.has(2) && channels.has(6) && channels.has(8)).toBe(true);
    const years = new Set(movies.map((m) => new Date(m.dateCreated).getUTCFullYear()));
    expect(years.size).toBeGreaterThanOrEqual(5);
    expect([...store.users.values()].some((u) => u.hasImage) && [...store.users.values()].some((u) => !u.hasImage)).toBe(true);
    expect(movies.some((m) => m.media?.subtitles.some((s) => s.external))).toBe(true);
  });

  it('Emby ids are numeric strings, user ids stay GUIDs', () => {
    const { store } = generateLibrary({ seed: 1, scale: 'tiny', flavor: 'emby' });
    for (const id of store.items.keys()) expect(id).toMatch(/^\d+$/);
    for (const id of store.users.keys()) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });
});
