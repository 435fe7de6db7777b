import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

describe('server Node flags', () => {
  it('npm start runs the server with the same flags as dev and the benchmarks', () => {
    const scripts = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.mjs`);
  });
});
