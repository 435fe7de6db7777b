import type { HistoryWriteOrder, LivePlay, Transition } from './play-state-machine.js';

/**
 * The transitions a monitor computed but has not written yet (the database was away). Merged in order, so
 * the write after an outage leaves the database as if every poll had been written: the last state of each
 * live play, the deletes of plays that ended for good, and one history write per play with its latest
 * counters (an insert if its first write never reached the database, else the extension of its row).
 */
export class UnsavedChanges {
  private readonly upserts = new Map<string, LivePlay>();
  private readonly deletes = new Set<string>();
  private readonly writes = new Map<string, HistoryWriteOrder>();
  private started: Transition['started'] = [];
  private ended: LivePlay[] = [];
  private count = 0;

  add(transition: Transition): void {
    this.count++;
    for (const play of transition.upserts) {
      // Map order is first-insertion order; re-inserting keeps "ended before the next play" ordering right.
      this.upserts.delete(play.playKey);
      this.upserts.set(play.playKey, play);
      this.deletes.delete(play.playKey);
    }
    for (const key of transition.deletes) {
      this.upserts.delete(key);
      this.deletes.add(key);
    }
    for (const order of transition.writes) {
      const earlier = this.writes.get(order.play.playKey);
      // The first unsaved order says what the database holds (no row, or a row of previousSeconds).
      this.writes.set(order.play.playKey, earlier ? { ...earlier, play: order.play } : order);
    }
    this.started.push(...transition.started);
    this.ended.push(...transition.ended);
  }

  isEmpty(): boolean {
    return this.count === 0;
  }

  /**
   * What to write: the live plays in the order they changed, the play keys to delete, the history writes, and
   * the plays that started (their webhooks go out in the same transaction).
   */
  changes(): { upserts: LivePlay[]; deletes: string[]; writes: HistoryWriteOrder[]; started: Transition['started'] } {
    return { upserts: [...this.upserts.values()], deletes: [...this.deletes], writes: [...this.writes.values()], started: this.started };
  }

  /** Clears the changes once written; returns what they amount to (for metrics and events). */
  take(): Pick<Transition, 'writes' | 'started' | 'ended'> {
    const taken = { writes: [...this.writes.values()], started: this.started, ended: this.ended };
    this.upserts.clear();
    this.deletes.clear();
    this.writes.clear();
    this.started = [];
    this.ended = [];
    this.count = 0;
    return taken;
  }
}
