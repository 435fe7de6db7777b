import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoDate, weekdayOf } from './day-chart-cells.js';

/** The day chart's keys from day numbers (days since 1970-01-01), against JavaScript's own calendar. */
describe('day chart keys', () => {
  // 0001-01-01 to 9999-12-31.
  const anyDate = fc.integer({ min: -719_162, max: 2_932_896 });

  it('writes a date as toISOString does (fast-check)', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        expect(isoDate(date)).toBe(new Date(date * 86_400_000).toISOString().slice(0, 10));
      }),
      { numRuns: 2000 },
    );
    expect(isoDate(0)).toBe('1970-01-01');
    expect(isoDate(-1)).toBe('1969-12-31');
    expect(isoDate(11_016)).toBe('2000-02-29');
  });

  it('gives the weekday as getUTCDay does, Sunday 0 (fast-check)', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        expect(weekdayOf(date)).toBe(new Date(date * 86_400_000).getUTCDay());
      }),
      { numRuns: 2000 },
    );
  });
});
