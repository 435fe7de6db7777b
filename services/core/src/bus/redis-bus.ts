import { Redis } from 'ioredis';
import type { BusHandler, EventBus } from './event-bus.js';
import type { Logger } from '../logging/logger.js';

export class RedisBus implements EventBus {
  readonly backend = 'redis' as const;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Set<BusHandler<unknown>>>();

  private readonly prefix: string;

  constructor(
    redisUrl: string,
    private readonly logger: Logger,
    keyPrefix = 'reelstat',
  ) {
    this.prefix = `${keyPrefix}:bus:`;
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    this.subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (error) => this.logger.warn({ err: error.message }, 'redis (bus) connection error'));
    }
    this.subscriber.on('message', (fullChannel: string, payload: string) => {
      const channel = fullChannel.slice(this.prefix.length);
      let message: unknown;
      try {
        message = JSON.parse(payload);
      } catch {
        this.logger.warn({ channel }, 'ignored a bus message that is not JSON');
        return;
      }
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
  }

  async publish<Message>(channel: string, message: Message): Promise<void> {
    await this.publisher.publish(this.prefix + channel, JSON.stringify(message));
  }

  async subscribe<Message>(channel: string, handler: BusHandler<Message>): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.subscriber.subscribe(this.prefix + channel);
    }
    set.add(handler as BusHandler<unknown>);
    return async () => {
      set.delete(handler as BusHandler<unknown>);
      if (set.size === 0) {
        this.handlers.delete(channel);
        await this.subscriber.unsubscribe(this.prefix + channel).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.all([this.publisher.quit().catch(() => undefined), this.subscriber.quit().catch(() => undefined)]);
  }
}
