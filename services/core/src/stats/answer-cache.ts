import { registerCacheCounts, type CacheCounts } from '../metrics/metrics.js';

/**
 * What an answer was computed from: a group (a media server) and its version (the history's, which changes
 * with every recorded or deleted play). An answer of an older version can never be asked for again.
 */
export interface AnswerGeneration {
  group: string;
  version: string;
}

interface Entry {
  value: Promise<unknown>;
  expires: number;
  group: string | undefined;
}

/**
 * Answers of statistics calls, kept per process and keyed by everything they depend on: the call and its
 * input, the local date of the window in its time zone, and the history's version (last play id and total
 * plays, which change with every recorded or deleted play). A cached answer is therefore never stale for
 * plays; names, images and content counts written by a sync may lag by at most the TTL.
 *
 * This is what lets the home page's cards (refreshed by every open dashboard) cost a lookup instead of a scan.
 *
 * An answer given with a generation is dropped as soon as an answer of a newer version of its group is asked
 * for: on a busy server every finished play makes all earlier answers unreachable, and keeping them until
 * their TTL held a minute of them (an all-time day chart is thousands of objects) for the garbage collector
 * to copy and mark on every collection while the next answers were built.
 */
export class AnswerCache {
  /** Promises, not values: concurrent misses on one key share one computation instead of each running it. */
  private readonly entries = new Map<string, Entry>();
  /** Per group: the version of its newest answers and their keys. */
  private readonly generations = new Map<string, { version: string; keys: Set<string> }>();

  /** Read by reelstat_cache_requests_total{cache,result}. */
  private readonly counts: CacheCounts = { hits: 0, misses: 0 };

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 2000,
    name = 'statistics',
  ) {
    registerCacheCounts(name, this.counts);
  }

  get<T>(key: string, compute: () => Promise<T>, generation?: AnswerGeneration): Promise<T> {
    const now = Date.now();
    if (generation) this.enter(generation);
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) {
      this.counts.hits += 1;
      return hit.value as Promise<T>;
    }
    this.counts.misses += 1;
    if (this.entries.size >= this.maxEntries) {
      // Oldest first: Map keeps insertion order.
      for (const old of this.entries.keys()) {
        this.remove(old);
        if (this.entries.size < this.maxEntries / 2) break;
      }
    }
    const value = compute();
    const entry: Entry = { value: value as Promise<unknown>, expires: now + this.ttlMs, group: generation?.group };
    this.entries.set(key, entry);
    if (generation) this.generations.get(generation.group)!.keys.add(key);
    // A failure is not kept: the next caller tries again.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.remove(key);
    });
    return value;
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.generations.clear();
  }

  /**
   * Makes `generation` its group's current version, dropping the answers of the version before. Two requests
   * that read the version on either side of a write may swap it back and forth once: that costs a recomputation,
   * never a wrong answer (the version is part of every key).
   */
  private enter(generation: AnswerGeneration): void {
    const current = this.generations.get(generation.group);
    if (current?.version === generation.version) return;
    if (current) for (const key of current.keys) this.entries.delete(key);
    this.generations.set(generation.group, { version: generation.version, keys: new Set() });
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (entry.group !== undefined) this.generations.get(entry.group)?.keys.delete(key);
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
