import { describe, expect, it } from 'vitest';
import { SharedFreshReads } from './shared-fresh-reads.js';

/** A read the test ends by hand: what `run` returned, numbered in the order the reads started. */
function controlledReads() {
  const pending: Array<{ resolve: (value: string) => void; reject: (error: Error) => void }> = [];
  const run = () =>
    new Promise<string>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  return { pending, run };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('SharedFreshReads', () => {
  it('serves callers who asked during a read by the next read, one for all of them', async () => {
    const reads = new SharedFreshReads<string, string>();
    const { pending, run } = controlledReads();
    const first = reads.read('a', run);
    // Asked while the first read runs: it may have begun before a write these callers must see.
    const second = reads.read('a', run);
    const third = reads.read('a', run);
    expect(pending).toHaveLength(1);
    pending[0]!.resolve('version 1');
    await expect(first).resolves.toBe('version 1');
    await settled();
    expect(pending).toHaveLength(2);
    pending[1]!.resolve('version 2');
    await expect(second).resolves.toBe('version 2');
    await expect(third).resolves.toBe('version 2');
    expect(reads.started).toBe(2);
  });

  it('starts a new read for a caller who asks after the reads ended', async () => {
    const reads = new SharedFreshReads<string, string>();
    const { pending, run } = controlledReads();
    const first = reads.read('a', run);
    pending[0]!.resolve('version 1');
    await first;
    await settled();
    const later = reads.read('a', run);
    expect(pending).toHaveLength(2);
    pending[1]!.resolve('version 2');
    await expect(later).resolves.toBe('version 2');
  });

  it('keeps keys apart', async () => {
    const reads = new SharedFreshReads<string | undefined, string>();
    const { pending, run } = controlledReads();
    const one = reads.read(undefined, run);
    const other = reads.read('b', run);
    expect(pending).toHaveLength(2);
    pending[0]!.resolve('default server');
    pending[1]!.resolve('server b');
    await expect(one).resolves.toBe('default server');
    await expect(other).resolves.toBe('server b');
  });

  it('fails only the callers of a failed read; those waiting get a read of their own', async () => {
    const reads = new SharedFreshReads<string, string>();
    const { pending, run } = controlledReads();
    const first = reads.read('a', run);
    const waiting = reads.read('a', run);
    pending[0]!.reject(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settled();
    pending[1]!.resolve('version 2');
    await expect(waiting).resolves.toBe('version 2');
    // Nothing is left running: the next caller starts a read at once.
    const after = reads.read('a', run);
    expect(pending).toHaveLength(3);
    pending[2]!.resolve('version 3');
    await expect(after).resolves.toBe('version 3');
  });
});
