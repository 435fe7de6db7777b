import { describe, expect, it } from 'vitest';
import { backoffDelayMs, isRetryableStatus, parseRetryAfterMs } from './retry-policy.js';

describe('retry policy', () => {
  it('retries 429 and 5xx except 501, never other 4xx', () => {
    expect([429, 500, 502, 503, 504].map(isRetryableStatus)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 408, 409, 501].map(isRetryableStatus)).toEqual([false, false, false, false, false, false, false]);
  });

  it('doubles the step, caps it, and keeps jitter within the upper half', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5, 9].map((r) => backoffDelayMs(r, { ...policy, random: () => 0 }))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5].map((r) => backoffDelayMs(r, { ...policy, random: () => 0.999999 }))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(parseRetryAfterMs('5', now)).toBe(5_000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
  });
});
