export interface RetrySettings {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * When to try a failed delivery again, or null when it is dead: exponential backoff (base · 2^(attempt−1))
 * with "equal jitter" (half fixed, half random) so receivers that come back are not hit by every retry at the
 * same instant, capped at maxDelayMs. A Retry-After longer than that wins (the receiver asked), up to 24 h.
 */
export function retryDelay(
  attempt: number,
  result: { retryable: boolean; retryAfterMs: number | null },
  settings: RetrySettings,
  random: () => number = Math.random,
): number | null {
  if (!result.retryable || attempt >= settings.maxAttempts) return null;
  const exponential = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exponential / 2 + random() * (exponential / 2);
  if (result.retryAfterMs !== null) return Math.min(24 * 3_600_000, Math.max(result.retryAfterMs, jittered));
  return jittered;
}
