import { describe, expect, it } from 'vitest';
import { axisWidth } from './chart-axis';

describe('the views charts y axis', () => {
  const series = ['Movies', 'Shows'];
  const plain = (value: number) => String(value);

  it('keeps the default width for small counts', () => {
    expect(axisWidth([{ Key: '00', Movies: 10, Shows: 20 }], series, plain)).toBe(56);
    expect(axisWidth([], series, plain)).toBe(56);
  });

  it('widens for the stacked total of an all-time chart (seven digits), so no digit is cut off', () => {
    const rows = [
      { Key: '18', Movies: 600_000, Shows: 800_000 },
      { Key: '19', Movies: 500_000, Shows: 1_100_000 },
    ];
    // 1,600,000 stacked → labels up to 2,000,000: seven digits need more than 56 px.
    const width = axisWidth(rows, series, plain);
    expect(width).toBeGreaterThan(56);
    expect(width).toBeGreaterThanOrEqual(7 * 7.5);
  });

  it('measures the formatted label (durations carry their unit)', () => {
    const rows = [{ Key: '1', Movies: 90_000, Shows: 0 }];
    const withUnit = axisWidth(rows, series, (value) => `${value} minutes`);
    expect(withUnit).toBeGreaterThan(axisWidth(rows, series, plain));
  });
});
