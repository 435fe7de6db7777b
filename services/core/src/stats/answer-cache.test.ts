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

  it('names the local date of a zone', () => {
    const at = new Date('2026-10-10T18:45:00Z');
    expect([localDate('UTC', at), localDate('Asia/Kolkata', at), localDate('America/Los_Angeles', at)]).toEqual([
      '2026-10-10',
      '2026-10-11',
      '2026-10-10',
    ]);
  });
});
