/**
 * A keyed work queue as controllers use it: a key queued several times is worked once; a key being worked
 * when it is queued again runs once more afterwards (never twice at once); failures come back with
 * exponential backoff per key; successes may ask to come back later (periodic resync).
 */
export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly active = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly failures = new Map<string, number>();
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(private readonly backoff: { baseMs: number; maxMs: number } = { baseMs: 1000, maxMs: 300_000 }) {}

  add(key: string): void {
    if (this.closed) return;
    if (this.active.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.pending.add(key);
    this.wake?.();
  }

  /** Queues the key again after the next backoff step for it. Returns the delay. */
  retryLater(key: string): number {
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    const delay = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (failures - 1));
    this.addAfter(key, delay);
    return delay;
  }

  /** The key succeeded: its backoff starts over. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  addAfter(key: string, delayMs: number): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.add(key);
      }, delayMs),
    );
  }

  /** The next key to work on, or undefined once the queue is closed. */
  async next(): Promise<string | undefined> {
    while (!this.closed) {
      const [key] = this.pending;
      if (key !== undefined) {
        this.pending.delete(key);
        this.active.add(key);
        return key;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    return undefined;
  }

  done(key: string): void {
    this.active.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
    this.wake?.();
  }
}
