/**
 * The simulator's notion of time. Virtual mode: time moves only through advance(), and due timers fire in
 * order, one by one, at their own instant, so scenarios are exact and repeatable. Real mode: time follows the
 * wall clock and timers are ordinary setTimeouts.
 */
export type ClockMode = 'virtual' | 'real';

export interface TimerHandle {
  readonly id: number;
}

interface Timer {
  id: number;
  due: number;
  seq: number;
  fn: () => void;
  handle?: ReturnType<typeof setTimeout>;
}

export class Clock {
  readonly mode: ClockMode;
  private current: number;
  private timers = new Map<number, Timer>();
  private nextId = 1;
  private seq = 0;
  private offset = 0;

  constructor(mode: ClockMode, startMs?: number) {
    this.mode = mode;
    this.current = startMs ?? Date.now();
    if (mode === 'real') this.offset = this.current - Date.now();
  }

  now(): number {
    return this.mode === 'virtual' ? this.current : Date.now() + this.offset;
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    const id = this.nextId++;
    const timer: Timer = { id, due: this.now() + Math.max(0, delayMs), seq: this.seq++, fn };
    this.timers.set(id, timer);
    if (this.mode === 'real') {
      timer.handle = setTimeout(
        () => {
          this.timers.delete(id);
          fn();
        },
        Math.max(0, delayMs),
      );
      timer.handle.unref?.();
    }
    return { id };
  }

  clearTimer(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const t = this.timers.get(handle.id);
    if (!t) return;
    if (t.handle) clearTimeout(t.handle);
    this.timers.delete(handle.id);
  }

  /** Moves virtual time forward, firing every timer that falls due on the way, in time order. */
  advance(ms: number): number {
    if (this.mode !== 'virtual') throw new Error('advance() needs the virtual clock');
    if (!(ms >= 0)) throw new Error('advance() needs a non-negative duration');
    const target = this.current + ms;
    for (;;) {
      let first: Timer | undefined;
      for (const t of this.timers.values()) {
        if (t.due <= target && (!first || t.due < first.due || (t.due === first.due && t.seq < first.seq))) first = t;
      }
      if (!first) break;
      this.timers.delete(first.id);
      this.current = Math.max(this.current, first.due);
      first.fn();
    }
    this.current = target;
    return this.current;
  }

  /** Stops every pending timer (server shutdown). */
  clearAll(): void {
    for (const t of this.timers.values()) if (t.handle) clearTimeout(t.handle);
    this.timers.clear();
  }

  pendingTimers(): number {
    return this.timers.size;
  }
}
