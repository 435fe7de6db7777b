import { describe, expect, it } from 'vitest';
import { sharedBuffersSetting } from './embedded-postgres.js';

const GB = 1024 ** 3;

describe('the embedded PostgreSQL shared buffers (EMBEDDED_POSTGRES_SHARED_BUFFERS)', () => {
  it('takes an eighth of the memory for auto, between 128 MB and 2 GB', () => {
    expect(sharedBuffersSetting('auto', 8 * GB)).toBe('1024MB');
    expect(sharedBuffersSetting('auto', 6 * GB)).toBe('768MB');
    expect(sharedBuffersSetting('auto', 512 * 1024 ** 2)).toBe('128MB');
    expect(sharedBuffersSetting('auto', 64 * GB)).toBe('2048MB');
  });

  it('passes a size through as given', () => {
    expect(sharedBuffersSetting('512MB', 64 * GB)).toBe('512MB');
    expect(sharedBuffersSetting('4GB', 2 * GB)).toBe('4GB');
  });
});
