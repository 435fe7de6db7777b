import { describe, expect, it } from 'vitest';
import {
  agoParts,
  formatBitrate,
  formatClock,
  formatDuration,
  formatItemSize,
  formatSize,
  formatTicks,
  resolutionLabel,
  splitDuration,
  ticksToSeconds,
} from './format';

describe('ticks', () => {
  it('has 10,000,000 ticks per second', () => {
    expect(ticksToSeconds(10_000_000)).toBe(1);
    expect(ticksToSeconds(null)).toBe(0);
    expect(formatTicks(36_000_000_000 + 600_000_000 * 2 + 30_000_000)).toBe('1:02:03');
    expect(formatTicks(1_230_000_000)).toBe('2:03');
    expect(formatClock(59)).toBe('0:59');
  });
});

describe('bitrate', () => {
  it('is Kbps below 1000 Kbps, Mbps from 1000 Kbps', () => {
    expect(formatBitrate(850_000)).toBe('850 Kbps');
    expect(formatBitrate(999_499)).toBe('999 Kbps');
    expect(formatBitrate(1_000_000)).toBe('1.0 Mbps');
    expect(formatBitrate(12_345_000)).toBe('12.3 Mbps');
    expect(formatBitrate(undefined)).toBe('-');
  });
});

describe('resolution labels', () => {
  it.each([
    [144, '240p'],
    [240, '240p'],
    [241, '360p'],
    [360, '360p'],
    [480, '480p'],
    [576, '720p'],
    [720, '720p'],
    [800, '1080p'],
    [1080, '1080p'],
    [1081, '4K'],
    [2160, '4K'],
    [2161, '8K'],
    [4320, '8K'],
  ])('%i → %s', (height, label) => {
    expect(resolutionLabel(height)).toBe(label);
  });
  it('has no label without a height', () => {
    expect(resolutionLabel(0)).toBe('-');
  });
});

describe('sizes', () => {
  it('uses KB, MB, GB, TB and PB', () => {
    expect(formatSize(2048)).toBe('2.00 KB');
    expect(formatSize(5 * 1024 ** 2)).toBe('5.00 MB');
    expect(formatSize(1.5 * 1024 ** 3)).toBe('1.50 GB');
    expect(formatSize(3 * 1024 ** 4)).toBe('3.00 TB');
    expect(formatSize(2 * 1024 ** 5)).toBe('2.00 PB');
    expect(formatSize(4 * 1024 ** 6)).toBe('4096.00 PB');
  });
  it('shows item sizes in MB until 1000 MB, then GB', () => {
    expect(formatItemSize(999 * 1024 ** 2)).toBe('999.00 MB');
    expect(formatItemSize(1000 * 1024 ** 2)).toBe('0.98 GB');
    expect(formatItemSize(4 * 1024 ** 3)).toBe('4.00 GB');
  });
});

describe('durations with months of 30 days', () => {
  it('splits into months of 30 days', () => {
    expect(splitDuration(30 * 86400)).toEqual({ months: 1, days: 0, hours: 0, minutes: 0, seconds: 0 });
    expect(splitDuration(31 * 86400 + 3600 + 61)).toEqual({ months: 1, days: 1, hours: 1, minutes: 1, seconds: 1 });
    expect(formatDuration(29 * 86400)).toBe('29d');
    expect(formatDuration(65 * 86400 + 7200)).toBe('2mo 5d 2h');
    expect(formatDuration(0)).toBe('0m');
  });
});

describe('ago', () => {
  it('takes the largest non-zero part, null when there is none', () => {
    expect(agoParts({ days: 2, hours: 3 })).toEqual({ unit: 'days', value: 2 });
    expect(agoParts({ days: 0, hours: 0, minutes: 5 })).toEqual({ unit: 'minutes', value: 5 });
    expect(agoParts(null)).toBeNull();
    expect(agoParts({})).toBeNull();
  });
});
