import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@reelstat/core/test-support/test-services.js';
import { waitFor } from '@reelstat/core/test-support/test-kit.js';
import { repoRoot, spawnReelstat, type SpawnedReelstat } from './test-support/spawn-reelstat.js';

// The Kubernetes client costs about 75 MB of resident memory once loaded; a process outside Kubernetes must never
// load it (the activity monitor's 250 MB budget at 500 sessions). A module hook makes loading it fail the process.
const REFUSED = 'refused to load @kubernetes/client-node';
const work = mkdtempSync(path.join(tmpdir(), 'reelstat-no-kubernetes-'));
const hooks = path.join(work, 'refuse-kubernetes-hooks.mjs');
const register = path.join(work, 'refuse-kubernetes.mjs');
writeFileSync(
  hooks,
  `const refused = (s) => s === '@kubernetes/client-node' || s.startsWith('@kubernetes/client-node/') || s.includes('/node_modules/@kubernetes/client-node/');
export async function resolve(specifier, context, next) {
  if (refused(specifier)) throw new Error('${REFUSED} (imported by ' + context.parentURL + ')');
  const resolved = await next(specifier, context);
  if (refused(resolved.url)) throw new Error('${REFUSED} (imported by ' + context.parentURL + ')');
  return resolved;
}
`,
);
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

let db: TestDatabase;
let app: SpawnedReelstat | undefined;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  if (app && app.child.exitCode === null) {
    app.child.kill('SIGTERM');
    await app.exited;
  }
  await db.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('a process outside Kubernetes', () => {
  it('the hook does refuse the client (control)', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', register, '--input-type=module', '-e', "await import('@kubernetes/client-node')"],
      {
        cwd: path.join(repoRoot, 'services/core'),
        encoding: 'utf8',
      },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(REFUSED);
  });

  it('runs every role without loading the Kubernetes client', async () => {
    app = await spawnReelstat({
      NODE_OPTIONS: `--import=${register}`,
      HOME: work, // no ~/.kube/config
      DATABASE_URL: db.url,
      DATA_DIR: path.join(work, 'data'),
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
      ROLES: 'api,scheduler,dispatcher,operator',
    });
    await app.waitReady();
    // The operator leads (PostgreSQL election), finds no credentials and idles, without loading the client.
    await waitFor('the operator to idle', async () => app!.output().includes('no Kubernetes API configured; idle'), {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    expect(app.output()).not.toContain(REFUSED);
    expect(app.child.exitCode).toBeNull();
  });
});
