import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const box = new SecretBox('the data directory key');

  it('opens what it sealed, with a fresh IV each time', () => {
    const sealed = box.seal('an api key');
    expect(box.open(sealed)).toBe('an api key');
    expect(box.seal('an api key')).not.toBe(sealed);
  });

  it('refuses a value sealed with another key, a tampered one and a malformed one with the same clear message', () => {
    const message = 'cannot decrypt a stored secret: ENCRYPTION_KEY differs from the one it was saved with';
    const sealed = box.seal('an api key');
    expect(() => new SecretBox('another key').open(sealed)).toThrow(message);
    const [version, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow(message);
    // A tag of 3 bytes (a placeholder, say) made setAuthTag throw a TypeError before.
    expect(() => box.open('v1.bench.bench.bench')).toThrow(message);
    expect(() => box.open('plain text')).toThrow('not a sealed secret');
  });
});
