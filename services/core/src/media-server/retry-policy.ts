/** When and how long to wait before retrying an idempotent request. */

export interface RetryPolicy {
  /** Retries after the first attempt (so `retries + 1` attempts at most). */
  retries: number;
  /** First backoff step; doubles on each retry. */
  baseDelayMs: number;
  /** Upper bound of one backoff step. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the request fails instead. */
  maxRetryAfterMs: number;
  /** Source of jitter in [0, 1). */
  random: () => number;
}

/** 429 and server-side failures are worth another try; 501 (not implemented) and every other 4xx are not. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501);
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so concurrent clients spread
 * out without ever retrying immediately. `retry` is 1 for the first retry.
 */
export function backoffDelayMs(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(step / 2 + policy.random() * (step / 2));
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfterMs(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
