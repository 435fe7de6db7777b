#!/usr/bin/env node
// `npm start`: builds what is missing or stale, then runs every role in this one process.
// package.json runs this file with SERVER_NODE_FLAGS (scripts/server-node-flags.mjs: why the heap cap).
// Without DATABASE_URL it starts an embedded PostgreSQL under DATA_DIR (./data by default).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-needed'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
await import(pathToFileURL(path.join(root, 'services/server/dist/main.js')).href);
