/**
 * One read shared by every caller that asks while an earlier read of the same key is running, each caller still
 * served by a read that started after it asked.
 *
 * Every statistics call reads its server and the history's version first (a cached answer too: the version is
 * part of the answer's key), one query of every request. Under load many requests ask within one query's time;
 * joining the read already running could hand a caller a version from before a write that committed before the
 * caller asked (a stale cached answer), so those callers wait for it to end and share the next one instead. A
 * read answers for all who asked before it started, exactly as if each had read alone at that moment.
 */
export class SharedFreshReads<Key, T> {
  private readonly reads = new Map<Key, { running: Promise<T>; next?: Promise<T> }>();

  /** How many reads ran (for tests). */
  started = 0;

  read(key: Key, run: () => Promise<T>): Promise<T> {
    const state = this.reads.get(key);
    if (!state) return this.start(key, run);
    // After the running read, whether it failed or not: its failure is its own callers'.
    state.next ??= state.running.then(
      () => this.start(key, run),
      () => this.start(key, run),
    );
    return state.next;
  }

  private start(key: Key, run: () => Promise<T>): Promise<T> {
    this.started += 1;
    const running = run();
    const state: { running: Promise<T>; next?: Promise<T> } = { running };
    this.reads.set(key, state);
    const settle = () => {
      if (this.reads.get(key) === state && !state.next) this.reads.delete(key);
    };
    running.then(settle, settle);
    return running;
  }
}
