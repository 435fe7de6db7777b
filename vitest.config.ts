import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Workspace packages resolve to their TypeScript sources in tests, so no build is needed first.
const packages = ['contract', 'core', 'api', 'scheduler', 'dispatcher', 'operator', 'server', 'jellyfin-sim'];
const alias = [
  ...packages.flatMap((name) => [
    { find: new RegExp(`^@reelstat/${name}$`), replacement: here(`./services/${name}/src/index.ts`) },
    { find: new RegExp(`^@reelstat/${name}/(.*)$`), replacement: here(`./services/${name}/src/$1`) },
  ]),
];

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['services/*/src/**/*.test.ts', 'services/*/test/**/*.test.ts', 'scripts/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    globalSetup: [here('./scripts/test/global-setup.ts')],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
