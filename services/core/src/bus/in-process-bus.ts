import { EventEmitter } from 'node:events';
import type { BusHandler, EventBus } from './event-bus.js';

export class InProcessBus implements EventBus {
  readonly backend = 'in-process' as const;
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  async publish<Message>(channel: string, message: Message): Promise<void> {
    // Same semantics as Redis: subscribers get a copy, delivered asynchronously.
    const copy = JSON.parse(JSON.stringify(message)) as Message;
    setImmediate(() => this.emitter.emit(channel, copy));
  }

  async subscribe<Message>(channel: string, handler: BusHandler<Message>): Promise<() => Promise<void>> {
    const listener = (message: Message) => handler(message);
    this.emitter.on(channel, listener);
    return async () => {
      this.emitter.off(channel, listener);
    };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
