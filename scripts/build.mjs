#!/usr/bin/env node
// Builds the server (TypeScript project references, incremental) and the dashboard (Vite).
// `--if-needed` skips the dashboard when its build is newer than every source file.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ifNeeded = process.argv.includes('--if-needed');

function run(command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const started = Date.now();
run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'services/server']);
const webIndex = path.join(root, 'web/dist/index.html');
const webStale = !existsSync(webIndex) || newestMtime(path.join(root, 'web')) > statSync(webIndex).mtimeMs;
if (!ifNeeded || webStale)
  run(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], path.join(root, 'web'));
console.log(`build done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
