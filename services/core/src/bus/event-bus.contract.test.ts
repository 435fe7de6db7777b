import { afterEach, describe, expect, it } from 'vitest';
import type { EventBus } from './event-bus.js';
import { InProcessBus } from './in-process-bus.js';
import { RedisBus } from './redis-bus.js';
import { testLogger, testRedisUrl, uniqueRedisPrefix, waitUntil } from '../test-support/test-services.js';

const backends: Array<{ name: string; pair: () => [EventBus, EventBus] }> = [
  {
    name: 'in-process',
    pair: () => {
      const bus = new InProcessBus();
      return [bus, bus];
    },
  },
  {
    name: 'redis',
    pair: () => {
      const prefix = uniqueRedisPrefix();
      return [new RedisBus(testRedisUrl(), testLogger, prefix), new RedisBus(testRedisUrl(), testLogger, prefix)];
    },
  },
];

describe.each(backends)('event bus contract: $name', ({ pair }) => {
  let buses: EventBus[] = [];
  afterEach(async () => {
    await Promise.all([...new Set(buses)].map((bus) => bus.close()));
    buses = [];
  });

  it('delivers a published message to every subscriber of the channel, as a copy', async () => {
    const [publisher, subscriber] = pair();
    buses = [publisher, subscriber];
    const received: unknown[] = [];
    await subscriber.subscribe('playback', (message) => received.push(message));
    await subscriber.subscribe('playback', (message) => received.push(message));
    await subscriber.subscribe('other', () => received.push('wrong channel'));
    const message = { event: 'playback_started', user: 'u1', at: '2026-01-01T00:00:00.000Z' };
    await publisher.publish('playback', message);
    await waitUntil(() => received.length === 2);
    expect(received).toEqual([message, message]);
    expect(received[0]).not.toBe(message);
  });

  it('stops delivering after unsubscribe', async () => {
    const [publisher, subscriber] = pair();
    buses = [publisher, subscriber];
    const received: unknown[] = [];
    const unsubscribe = await subscriber.subscribe('tasks', (message) => received.push(message));
    await publisher.publish('tasks', 1);
    await waitUntil(() => received.length === 1);
    await unsubscribe();
    // A handler still subscribed gets the same message at the same time: once it has 2, the removed one
    // would have had it too.
    const stillSubscribed: unknown[] = [];
    await subscriber.subscribe('tasks', (message) => stillSubscribed.push(message));
    await publisher.publish('tasks', 2);
    await waitUntil(() => stillSubscribed.length === 1);
    expect(stillSubscribed).toEqual([2]);
    expect(received).toEqual([1]);
  });
});
