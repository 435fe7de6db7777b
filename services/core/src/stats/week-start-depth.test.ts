import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { weekStartDepth } from './card-windows.js';

describe('weekStartDepth (a week card walk by plays: its first depth from how loose its month lists are)', () => {
  it('starts at 50 when the month lists hold about twice the window, or nothing is known of the days', () => {
    expect(weekStartDepth(70_000, 35_000)).toBe(50);
    expect(weekStartDepth(30_000, 35_000)).toBe(50);
    expect(weekStartDepth(149_286, 0)).toBe(50);
  });

  it('goes deep enough for one round early in a month (5 M plays on 3 December: 200 ended every kind in one round)', () => {
    expect(weekStartDepth(149_286, 34_668)).toBeGreaterThanOrEqual(200);
    expect(weekStartDepth(149_286, 34_668)).toBeLessThanOrEqual(300);
  });

  it('is a multiple of 50 between 50 and the walk deepest, and never shallower for looser lists', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (months, days, more) => {
          const depth = weekStartDepth(months, days);
          expect(depth % 50).toBe(0);
          expect(depth).toBeGreaterThanOrEqual(50);
          expect(depth).toBeLessThanOrEqual(5_000);
          expect(weekStartDepth(months + more, days)).toBeGreaterThanOrEqual(depth);
        },
      ),
    );
  });
});
