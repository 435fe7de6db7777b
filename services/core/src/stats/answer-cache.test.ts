import { describe, expect, it } from 'vitest';
import { AnswerCache, localDate } from './answer-cache.js';

describe('AnswerCache', () => {
  it('computes once for concurrent callers of one key, and again for another key', async () => {
    const cache = new AnswerCache();
    let runs = 0;
    const slow = (value: number) => async () => {
      runs += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return value;
    };
    const answers = await Promise.all([cache.get('a', slow(1)), cache.get('a', slow(2)), cache.get('a', slow(3)), cache.get('b', slow(4))]);
    expect(answers).toEqual([1, 1, 1, 4]);
    expect(runs).toBe(2);
  });

  it('forgets failures and expired answers', async () => {
    const cache = new AnswerCache(0);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 7)).toBe(7);
    expect(await cache.get('k', async () => 8)).toBe(8);
  });

  it("drops a group's answers when a newer version of it is asked for, and keeps other groups'", async () => {
    const cache = new AnswerCache();
    let runs = 0;
    const count = async () => ++runs;
    const v1 = { group: 'server-a', version: '1' };
    expect(await cache.get('a1:chart', count, v1)).toBe(1);
    expect(await cache.get('a1:cards', count, v1)).toBe(2);
    expect(await cache.get('b1:chart', count, { group: 'server-b', version: '1' })).toBe(3);
    expect(await cache.get('plain', count)).toBe(4);
    expect(cache.size).toBe(4);
    // The same version again: answered from the cache.
    expect(await cache.get('a1:chart', count, v1)).toBe(1);
    // Server a's history changed: its two old answers are gone, b's and the plain one stay.
    expect(await cache.get('a2:chart', count, { group: 'server-a', version: '2' })).toBe(5);
    expect(cache.size).toBe(3);
    expect(await cache.get('b1:chart', count, { group: 'server-b', version: '1' })).toBe(3);
    expect(await cache.get('plain', count)).toBe(4);
    // A request that read the version before the change computes its answer again (never a stale one kept).
    expect(await cache.get('a1:chart', count, v1)).toBe(6);
    expect(cache.size).toBe(3);
  });

  it('keeps the generation lists in step when answers are evicted or fail', async () => {
    const cache = new AnswerCache(60_000, 4);
    const v = (version: string) => ({ group: 'g', version });
    for (let i = 0; i < 10; i += 1) await cache.get(`k${i}`, async () => i, v('1'));
    expect(cache.size).toBeLessThanOrEqual(4);
    await expect(cache.get('bad', () => Promise.reject(new Error('down')), v('1'))).rejects.toThrow('down');
    expect(await cache.get('bad', async () => 'ok', v('1'))).toBe('ok');
    await cache.get('k-new', async () => 0, v('2'));
    expect(cache.size).toBe(1);
  });

  it('names the local date of a zone', () => {
    const at = new Date('2026-10-10T18:45:00Z');
    expect([localDate('UTC', at), localDate('Asia/Kolkata', at), localDate('America/Los_Angeles', at)]).toEqual([
      '2026-10-10',
      '2026-10-11',
      '2026-10-10',
    ]);
  });
});
