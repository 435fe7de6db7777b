#!/usr/bin/env node
// `npm test`: runs every Vitest test (unit and integration, against real PostgreSQL and Redis), then the
// dashboard's Playwright suite (web/e2e, system Chromium), then prints one plain summary line
// ("tests: N passed, N failed, N skipped") for CI, counting both. Extra arguments go to Vitest, and then only
// Vitest runs (a filtered run); `npm run test:e2e` runs the browser suite alone.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const reportDir = path.join(root, '.test-results');
mkdirSync(reportDir, { recursive: true });
const report = path.join(reportDir, 'vitest.json');

const result = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: process.env },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  passed = summary.numPassedTests ?? 0;
  // A file that fails to load has no test results of its own: count it as one failure.
  const brokenFiles = (summary.testResults ?? []).filter(
    (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
  ).length;
  failed = (summary.numFailedTests ?? 0) + brokenFiles;
  skipped = (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
}
if (result.status !== 0 && failed === 0) failed = 1;

let e2eOk = true;
if (process.argv.length <= 2) {
  const e2eReport = path.join(reportDir, 'playwright.json');
  rmSync(e2eReport, { force: true });
  const e2e = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'web/playwright.config.ts'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    },
  );
  let e2eFailed = 0;
  if (existsSync(e2eReport)) {
    const stats = JSON.parse(readFileSync(e2eReport, 'utf8')).stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    e2eFailed = stats.unexpected ?? 0;
    skipped += stats.skipped ?? 0;
  }
  // No report, or a failure outside the tests (global setup, no browser): one failure.
  if (e2e.status !== 0 && e2eFailed === 0) e2eFailed = 1;
  failed += e2eFailed;
  e2eOk = e2e.status === 0 && e2eFailed === 0;
}
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(result.status === 0 && failed === 0 && e2eOk ? 0 : 1);
