import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { baseUrlForConfig } from './e2e/env.js';

/** The system's Chromium (apt-get install -y chromium); Playwright never downloads a browser here. */
const chromium = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((file) => existsSync(file));

/**
 * End-to-end tests of the built dashboard against a real Reelstat (fresh data directory, embedded PostgreSQL)
 * linked to the Jellyfin simulator; both are started by e2e/global-setup.ts. One worker: the tests share
 * that backend, and 00-setup runs the first-run wizard before the others.
 */
export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  // One retry in CI: the suite drives real processes on a shared 2-core machine. A test that fails twice
  // fails the run; one that passes on retry is reported as flaky (see the JSON report).
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: '../.test-results/playwright.json' }]],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: baseUrlForConfig(),
    viewport: { width: 1280, height: 900 },
    trace: 'off',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
});
