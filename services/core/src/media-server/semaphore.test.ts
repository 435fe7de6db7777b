import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.js';

describe('Semaphore', () => {
  it('grants up to the limit and then in arrival order', async () => {
    const s = new Semaphore(2);
    const order: string[] = [];
    const a = await s.acquire();
    const b = await s.acquire();
    const waiting = ['c', 'd', 'e'].map((name) => s.acquire().then((release) => (order.push(name), release)));
    expect([s.inFlight, s.waiting]).toEqual([2, 3]);
    a();
    a(); // a second release of the same slot is ignored
    const c = await waiting[0]!;
    expect([s.inFlight, s.waiting]).toEqual([2, 2]);
    b();
    c();
    const [, d, e] = await Promise.all(waiting);
    expect(order).toEqual(['c', 'd', 'e']);
    d!();
    e!();
    expect([s.inFlight, s.waiting]).toEqual([0, 0]);
  });

  it('drops an aborted waiter from the line', async () => {
    const s = new Semaphore(1);
    const held = await s.acquire();
    const controller = new AbortController();
    const aborted = s.acquire(controller.signal);
    const next = s.acquire();
    controller.abort(new Error('gone'));
    await expect(aborted).rejects.toThrow('gone');
    expect(s.waiting).toBe(1);
    held();
    (await next)();
    expect([s.inFlight, s.waiting]).toEqual([0, 0]);
    await expect(s.acquire(controller.signal)).rejects.toThrow('gone');
  });

  it('refuses a limit below one', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
