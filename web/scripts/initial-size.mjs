#!/usr/bin/env node
// Initial JavaScript of the built dashboard: the entry script plus every module it preloads, gzipped (level 9).
// Usage: node web/scripts/initial-size.mjs [--max-kb 300]   (run `npx vite build` in web/ first)
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map(
  (m) => m[1] ?? m[2],
);
let raw = 0;
let gzipped = 0;
for (const file of files) {
  const content = readFileSync(path.join(dist, file));
  const size = gzipSync(content, { level: 9 }).length;
  raw += content.length;
  gzipped += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} kB gz  ${file}`);
}
console.log(`initial JS: ${files.length} files, ${(raw / 1024).toFixed(1)} kB raw, ${(gzipped / 1024).toFixed(1)} kB gzipped`);
const maxIndex = process.argv.indexOf('--max-kb');
if (maxIndex > 0 && gzipped / 1024 > Number(process.argv[maxIndex + 1])) {
  console.error(`over the budget of ${process.argv[maxIndex + 1]} kB`);
  process.exit(1);
}
