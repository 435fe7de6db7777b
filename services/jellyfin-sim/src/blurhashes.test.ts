// The blurHashes option: a Jellyfin server that computed no BlurHashes still sends image tags, never hashes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from './index.js';
import { Client, start, type ItemsPage } from './testing.test-helpers.js';

const ITEMS = '/Items?Recursive=true&Limit=50&IncludeItemTypes=Movie,Series,Episode,Audio&Fields=DateCreated';
let plain: RunningSimulator;
let hashed: RunningSimulator;

beforeAll(async () => {
  [plain, hashed] = await Promise.all([start({ blurHashes: false }), start()]);
});
afterAll(async () => Promise.all([plain.stop(), hashed.stop()]));

describe('blurHashes option', () => {
  it('sends image tags without ImageBlurHashes when off, and both by default', async () => {
    const without = (await new Client(plain).get<ItemsPage>(ITEMS)).json.Items;
    const withHashes = (await new Client(hashed).get<ItemsPage>(ITEMS)).json.Items;
    const tagged = (items: Record<string, unknown>[]) => items.filter((i) => (i.ImageTags as Record<string, string>)?.Primary);
    expect(tagged(without).length).toBeGreaterThan(0);
    expect(without.filter((i) => 'ImageBlurHashes' in i)).toEqual([]);
    expect(tagged(withHashes).every((i) => 'ImageBlurHashes' in i)).toBe(true);
  });

  it('reports the option in the control state', async () => {
    const state = await new Client(plain).get<{ blurHashes: boolean }>('/__control/state');
    expect(state.json.blurHashes).toBe(false);
  });
});
