#!/usr/bin/env node
// `npm run dev`: the API from source, restarted when a server file changes, and the Vite dev server, which
// proxies API and socket calls to it (open the URL Vite prints, http://localhost:5173 by default).
// We restart the API ourselves rather than with `tsx watch` so that each restart waits for a clean shutdown:
// a killed API would leave its embedded PostgreSQL behind.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDirs = ['contract', 'core', 'api', 'scheduler', 'dispatcher', 'operator', 'server'].map((name) =>
  path.join(root, 'services', name, 'src'),
);

let api;
let restartTimer;
let stopping = false;

function startApi() {
  api = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--conditions=reelstat-source', '--import', 'tsx', 'services/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { LOG_FORMAT: 'pretty', ...process.env },
  });
}

function stopApi() {
  if (!api || api.exitCode !== null) return Promise.resolve();
  const child = api;
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

for (const dir of serverDirs) {
  watch(dir, { recursive: true }, (_event, file) => {
    if (!file || !/\.ts$/.test(file) || /\.test\.ts$/.test(file) || stopping) return;
    clearTimeout(restartTimer);
    restartTimer = setTimeout(async () => {
      console.log(`\n[dev] ${file} changed: restarting the API`);
      await stopApi();
      if (!stopping) startApi();
    }, 300);
  });
}

startApi();
const vite = spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], { cwd: path.join(root, 'web'), stdio: 'inherit' });

async function shutdown() {
  if (stopping) return;
  stopping = true;
  clearTimeout(restartTimer);
  vite.kill('SIGTERM');
  await stopApi();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
