// Package-local config: runs the simulator's tests without the root globalSetup (PostgreSQL/Redis),
// which this package does not need. `npx vitest run --config services/jellyfin-sim/vitest.config.ts`
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
