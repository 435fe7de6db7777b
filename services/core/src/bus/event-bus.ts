export type BusHandler<Message = unknown> = (message: Message) => void;

/**
 * Publish/subscribe between roles and replicas (domain events such as playback_started, task progress).
 * In-process for the single-node install, Redis pub/sub in a cluster. Delivery is at-most-once: anything
 * that must not be lost goes through the job queue or the database instead.
 */
export interface EventBus {
  readonly backend: 'in-process' | 'redis';
  publish<Message>(channel: string, message: Message): Promise<void>;
  subscribe<Message>(channel: string, handler: BusHandler<Message>): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
