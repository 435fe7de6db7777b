/**
 * Writes docs/openapi.json from the route definitions (`npm run openapi`), or with --check fails when the
 * committed copy differs from what the code generates (`npm run openapi:check`, also run as a test).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Runtime } from '@reelstat/core';
import { createApiRoutes } from '../src/roles/api-role.js';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));

/** The document as committed: the route lists need no runtime to be read. */
export function generatedOpenApiText(): string {
  const routes = createApiRoutes({} as Runtime);
  return `${JSON.stringify(buildOpenApiDocument(routes.definitions), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = generatedOpenApiText();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(OPENAPI_FILE, 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current !== text) {
      console.error('docs/openapi.json is stale: run `npm run openapi` and commit it');
      process.exit(1);
    }
    console.log('docs/openapi.json is up to date');
  } else {
    writeFileSync(OPENAPI_FILE, text);
    console.log(`wrote ${OPENAPI_FILE}`);
  }
}
