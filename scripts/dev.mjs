#!/usr/bin/env node
// `npm run dev`: the API with reload on change (tsx watch) and the Vite dev server, which proxies API and
// socket calls to it. Open http://localhost:5173.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children = [
  spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'services/api/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { LOG_FORMAT: 'pretty', ...process.env },
  }),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], { cwd: path.join(root, 'web'), stdio: 'inherit' }),
];
const stop = (signal) => children.forEach((child) => child.kill(signal));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
await Promise.all(children.map((child) => new Promise((resolve) => child.on('exit', resolve))));
