#!/usr/bin/env node
// `npm test`: runs every Vitest test (unit and integration, against real PostgreSQL and Redis), then prints
// one plain summary line ("tests: N passed, N failed, N skipped") for CI. Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
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
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(result.status === 0 && failed === 0 ? 0 : 1);
