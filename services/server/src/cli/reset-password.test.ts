import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, digest, type ApiHarness } from '../test-support/api-harness.js';
import { repoRoot } from '../test-support/spawn-reelstat.js';

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=reelstat-source', '--import', 'tsx', path.join(repoRoot, 'services/server/src/cli/reset-password.ts'), ...args],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('npm run reset-password', () => {
  let harness: ApiHarness;
  const dir = mkdtempSync(path.join(tmpdir(), 'reelstat-reset-'));
  beforeAll(async () => {
    harness = await startApiHarness();
  });
  afterAll(async () => {
    await harness.stop();
  });

  it('says so when there is no administrator yet', async () => {
    writeFileSync(path.join(dir, 'pw'), 'new-password\n');
    const result = await runCli(['--password-file', path.join(dir, 'pw')], { DATABASE_URL: harness.database.url, DATA_DIR: dir });
    expect(result.code).toBe(1);
    expect(result.output).toContain('There is no administrator account yet');
  });

  it('sets a new password and username, signing out every session', async () => {
    const { token } = (await harness.call('POST', '/auth/createuser', { body: { username: 'admin', password: digest('forgotten') } }))
      .body as { token: string };
    writeFileSync(path.join(dir, 'pw'), 'fresh-start\n');
    const result = await runCli(['--password-file', path.join(dir, 'pw'), '--username', 'root-admin'], {
      DATABASE_URL: harness.database.url,
      DATA_DIR: dir,
    });
    expect(result.output).toContain('Password reset for "root-admin". Existing logins were signed out.');
    expect(result.code).toBe(0);
    expect((await harness.call('GET', '/api/getconfig', { token })).status).toBe(401);
    expect((await harness.call('POST', '/auth/login', { body: { username: 'root-admin', password: digest('fresh-start') } })).status).toBe(
      200,
    );
  });

  it('refuses a password shorter than 6 characters', async () => {
    writeFileSync(path.join(dir, 'short'), 'abc');
    const result = await runCli(['--password-file', path.join(dir, 'short')], { DATABASE_URL: harness.database.url, DATA_DIR: dir });
    expect(result.code).toBe(1);
    expect(result.output).toContain('at least 6 characters');
  });
});
