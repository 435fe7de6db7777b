import type { Database } from '../db/database.js';
import { completeDeliveries, type Completion } from './delivery-repository.js';

interface Waiting {
  completion: Completion;
  resolve(applied: boolean): void;
  reject(error: unknown): void;
}

/** Most outcomes one UPDATE carries; a bigger backlog is written in several. */
const MAX_BATCH = 500;

/**
 * Writes attempt outcomes in batches ("group commit"): the first outcome is written on the next turn of the
 * event loop together with everything that finished in the same turn; outcomes arriving while a write runs
 * wait for it and go together in the next one. An idle dispatcher thus writes at once, a busy one issues one
 * UPDATE per batch instead of one per delivery.
 */
export class CompletionWriter {
  private queue: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: Database) {}

  /** Resolves true when the outcome was recorded, false when the lease had been lost meanwhile. */
  record(completion: Completion): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ completion, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const applied = await completeDeliveries(
          this.db,
          batch.map((waiting) => waiting.completion),
        );
        for (const waiting of batch) waiting.resolve(applied.has(waiting.completion.id));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.writing = false;
  }
}
