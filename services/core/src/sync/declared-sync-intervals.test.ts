import { describe, expect, it } from 'vitest';
import { dueServers } from './declared-sync-intervals.js';

const minute = 60_000;
const since = Date.parse('2026-11-01T00:00:00Z');
const link = (id: string, sync?: unknown, suspended = false) => ({ id, settings: sync === undefined ? {} : { sync }, suspended });
const at = (minutes: number) => new Date(since + minutes * minute);

describe('sync intervals: each server on its own (declared by its MediaStatsServer, else the installation’s)', () => {
  it('without declarations every server follows the installation interval', () => {
    const links = [link('a'), link('b', null)];
    expect(dueServers('PartialSyncTask', 60, links, new Map(), since, since + 59 * minute)).toEqual([]);
    expect(dueServers('PartialSyncTask', 60, links, new Map(), since, since + 60 * minute)).toEqual(['a', 'b']);
  });

  it('a longer declared interval makes that server wait while the others sync on the installation interval', () => {
    const links = [link('a'), link('slow', { recentIntervalMinutes: 600 })];
    const starts = new Map([
      ['a', at(0)],
      ['slow', at(0)],
    ]);
    expect(dueServers('PartialSyncTask', 60, links, starts, since, since + 60 * minute)).toEqual(['a']);
    expect(dueServers('PartialSyncTask', 60, links, new Map([...starts, ['a', at(560)]]), since, since + 600 * minute)).toEqual(['slow']);
  });

  it('a shorter declared interval syncs that server more often without dragging the others along', () => {
    const links = [link('a'), link('fast', { recentIntervalMinutes: 15, fullIntervalMinutes: 720 })];
    const starts = new Map([
      ['a', at(0)],
      ['fast', at(0)],
    ]);
    expect(dueServers('PartialSyncTask', 60, links, starts, since, since + 15 * minute)).toEqual(['fast']);
    expect(dueServers('FullSyncTask', 1440, links, starts, since, since + 720 * minute)).toEqual(['fast']);
    expect(dueServers('FullSyncTask', 1440, links, starts, since, since + 1440 * minute)).toEqual(['a', 'fast']);
  });

  it('skips suspended servers, ignores declared values that are not positive numbers, counts a new server from `since`', () => {
    const links = [link('off', { recentIntervalMinutes: 5 }, true), link('bad', { recentIntervalMinutes: '5', fullIntervalMinutes: 0 })];
    expect(dueServers('PartialSyncTask', 60, links, new Map(), since, since + 30 * minute)).toEqual([]);
    expect(dueServers('FullSyncTask', 1440, links, new Map(), since, since + 1440 * minute)).toEqual(['bad']);
  });
});
