import { registerCacheCounts, type CacheCounts } from '../metrics/metrics.js';

/**
 * Answers of statistics calls, kept per process and keyed by everything they depend on: the call and its
 * input, the local date of the window in its time zone, and the history's version (last play id and total
 * plays, which change with every recorded or deleted play). A cached answer is therefore never stale for
 * plays; names, images and content counts written by a sync may lag by at most the TTL.
 *
 * This is what lets the home page's cards (refreshed by every open dashboard) cost a lookup instead of a scan.
 */
export class AnswerCache {
  /** Promises, not values: concurrent misses on one key share one computation instead of each running it. */
  private readonly entries = new Map<string, { value: Promise<unknown>; expires: number }>();

  /** Read by reelstat_cache_requests_total{cache,result}. */
  private readonly counts: CacheCounts = { hits: 0, misses: 0 };

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 2000,
    name = 'statistics',
  ) {
    registerCacheCounts(name, this.counts);
  }

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) {
      this.counts.hits += 1;
      return hit.value as Promise<T>;
    }
    this.counts.misses += 1;
    if (this.entries.size >= this.maxEntries) {
      // Oldest first: Map keeps insertion order.
      for (const old of this.entries.keys()) {
        this.entries.delete(old);
        if (this.entries.size < this.maxEntries / 2) break;
      }
    }
    const value = compute();
    const entry = { value: value as Promise<unknown>, expires: now + this.ttlMs };
    this.entries.set(key, entry);
    // A failure is not kept: the next caller tries again.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with it, and
 * every statistics call asks for today's date. Bounded by the IANA zones (an unknown zone throws before it is kept).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date (YYYY-MM-DD) in a time zone: day windows start at its local midnight. */
export function localDate(timeZone: string, at = new Date()): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  return format.format(at);
}
