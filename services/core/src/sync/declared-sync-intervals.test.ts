import { describe, expect, it } from 'vitest';
import { scheduledIntervals } from './declared-sync-intervals.js';

const installation = { PartialSyncTask: 60, FullSyncTask: 1440, BackupTask: 1440 };
const link = (sync: unknown, suspended = false) => ({ settings: { sync }, suspended });

describe('sync intervals declared by MediaStatsServers', () => {
  it('leave the installation intervals alone without declarations', () => {
    expect(scheduledIntervals(installation, [])).toEqual(installation);
    expect(scheduledIntervals(installation, [link(null), { settings: {}, suspended: false }])).toEqual(installation);
  });

  it('shorten the sync tasks to the shortest declared interval of a live server', () => {
    expect(
      scheduledIntervals(installation, [
        link({ recentIntervalMinutes: 15 }),
        link({ recentIntervalMinutes: 30, fullIntervalMinutes: 720 }),
      ]),
    ).toEqual({
      PartialSyncTask: 15,
      FullSyncTask: 720,
      BackupTask: 1440,
    });
  });

  it('never lengthen them, and ignore suspended servers and values that are not positive numbers', () => {
    expect(scheduledIntervals(installation, [link({ recentIntervalMinutes: 600, fullIntervalMinutes: 40_000 })])).toEqual(installation);
    expect(scheduledIntervals(installation, [link({ recentIntervalMinutes: 5 }, true)])).toEqual(installation);
    expect(scheduledIntervals(installation, [link({ recentIntervalMinutes: '5', fullIntervalMinutes: 0 })])).toEqual(installation);
  });
});
