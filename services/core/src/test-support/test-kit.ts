// The one home of what tests and scripts repeat: waiting for a condition, a free port, a JSON call over HTTP,
// a metric read from /metrics. No vitest import, so the benchmark and demo scripts can use it too.
// (The simulator's tests keep their own helpers: it imports nothing of Reelstat; so does web/e2e, which may
// import only the contract.)
import { findFreePort } from '../db/embedded-postgres.js';

/** A free TCP port on 127.0.0.1 (the OS picks it; the caller binds it soon after). */
export const freePort = findFreePort;

/**
 * Polls `check` until it answers something other than undefined or false, and returns that answer. A check that
 * throws counts as "not yet" (a server still starting refuses connections). After the deadline it throws,
 * naming what it waited for and the last error seen. Deadlines are generous on purpose: they only end a test
 * that would otherwise hang, they never measure speed.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 30_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface CallOptions {
  body?: unknown;
  /** A session token, sent as `Authorization: Bearer`. */
  token?: string;
  /** An API key, sent as `x-api-token`. */
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface CallAnswer {
  status: number;
  /** The parsed JSON, the text when the body is not JSON, undefined when empty. */
  body: unknown;
  headers: Headers;
}

/** One HTTP call the way the dashboard makes it: JSON in, JSON (or text) out. */
export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<CallAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers['x-api-token'] = options.apiKey;
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body, headers: res.headers };
}

/** A sample's value in a Prometheus exposition (the first series of that name), undefined when absent. */
export function metricValue(exposition: string, name: string, labels = ''): number | undefined {
  const escaped = labels.replace(/[{}]/g, '\\$&');
  const series = labels ? `${name}${escaped}` : `${name}(?:\\{[^}]*\\})?`;
  const match = new RegExp(`^${series} ([0-9.e+-]+|NaN|[+-]Inf)$`, 'm').exec(exposition);
  return match ? Number(match[1]) : undefined;
}

/** A metric's value as a running process's /metrics shows it now (undefined when it cannot be read or is absent). */
export async function scrapeMetric(baseUrl: string, name: string, labels = ''): Promise<number | undefined> {
  const text = await fetch(`${baseUrl}/metrics`).then(
    (res) => (res.ok ? res.text() : undefined),
    () => undefined,
  );
  return text === undefined ? undefined : metricValue(text, name, labels);
}
