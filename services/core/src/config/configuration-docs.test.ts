import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema } from './env-schema.js';

describe('docs/configuration.md', () => {
  it('documents every environment variable, and nothing that does not exist', () => {
    const docs = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    const documented = [...docs.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.keys(envSchema.shape).sort());
  });
});
