import { describe, expect, it } from 'vitest';
import { declaredIntervals } from './declared-intervals.js';

const installation = { activeSessionsInterval: 1000, idleInterval: 5000 };

describe("a link's declared activity monitor intervals", () => {
  it('fall back to the installation settings when absent', () => {
    expect(declaredIntervals(undefined, installation)).toEqual(installation);
    expect(declaredIntervals({ activityMonitor: null }, installation)).toEqual(installation);
  });

  it('win over them, each on its own, from seconds to milliseconds', () => {
    expect(declaredIntervals({ activityMonitor: { activeIntervalSeconds: 3 } }, installation)).toEqual({
      activeSessionsInterval: 3000,
      idleInterval: 5000,
    });
    expect(declaredIntervals({ activityMonitor: { activeIntervalSeconds: 2, idleIntervalSeconds: 60 } }, installation)).toEqual({
      activeSessionsInterval: 2000,
      idleInterval: 60_000,
    });
  });

  it('ignore values that are not positive numbers', () => {
    expect(declaredIntervals({ activityMonitor: { activeIntervalSeconds: '3', idleIntervalSeconds: 0 } }, installation)).toEqual(
      installation,
    );
  });
});
