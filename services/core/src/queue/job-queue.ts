/** A unit of background work, e.g. a sync run. Data must be JSON so that it can cross processes. */
export interface Job<Data = unknown> {
  id: string;
  kind: string;
  data: Data;
  attempt: number;
}

export type JobHandler<Data = unknown> = (job: Job<Data>) => Promise<void>;

export interface EnqueueOptions {
  /** Jobs with the same id are the same work: enqueueing it again while it waits or runs does nothing. */
  jobId?: string;
  delayMs?: number;
}

export interface EnqueueResult {
  id: string;
  /** False when a job with this id was already waiting or running, so nothing new was queued. */
  added: boolean;
}

/**
 * Background jobs. Two implementations share this contract (queue.contract.test.ts runs against both):
 * in-process for the single-node install, BullMQ on Redis for clusters.
 * Guarantees: a job runs once even with several workers; jobs of one kind never run two at a time.
 */
export interface JobQueue {
  readonly backend: 'in-process' | 'bullmq';
  enqueue<Data>(kind: string, data: Data, options?: EnqueueOptions): Promise<EnqueueResult>;
  /** Registers a worker for a kind; every process with the matching role calls this. Returns a stop function. */
  work<Data>(kind: string, handler: JobHandler<Data>): Promise<() => Promise<void>>;
  /** Jobs of this kind waiting or running. */
  depth(kind: string): Promise<number>;
  close(): Promise<void>;
}
