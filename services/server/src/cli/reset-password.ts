#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline/promises';
import { ConfigError, clientPasswordDigest, createLogger, hashPassword, isProcessAlive, loadConfig, openDatabase } from '@reelstat/core';

/**
 * Resets the administrator's password from the command line (docs/security.md):
 *   npm run reset-password -- [--username NEW_NAME] [--password-file FILE]
 * Without --password-file it asks on the terminal. Every login token issued before is revoked.
 * Works with DATABASE_URL, or with the embedded PostgreSQL under DATA_DIR whether Reelstat is running or not.
 */
async function main() {
  const { values } = parseArgs({ options: { username: { type: 'string' }, 'password-file': { type: 'string' } } });
  const config = loadConfig();
  const logger = createLogger({ ...config, logLevel: 'warn' });
  const password = values['password-file']
    ? readFileSync(values['password-file'], 'utf8').replace(/\r?\n$/, '')
    : await ask('New password: ');
  if (password.length < 6) throw new Error('The password must be at least 6 characters');

  let stopEmbedded: (() => Promise<void>) | undefined;
  let url = config.databaseUrl;
  if (!url) {
    const dir = path.join(config.dataDir, 'postgres');
    const pidFile = path.join(dir, 'cluster/postmaster.pid');
    const password = readFileSync(path.join(dir, 'password'), 'utf8').trim();
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
    if (pid > 0 && isProcessAlive(pid)) {
      // Reelstat is running: use its PostgreSQL.
      const port = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
      url = `postgres://reelstat:${encodeURIComponent(password)}@127.0.0.1:${port}/reelstat`;
    } else {
      const { EmbeddedPostgres } = await import('@reelstat/core');
      const embedded = new EmbeddedPostgres(dir, logger);
      url = await embedded.start();
      stopEmbedded = () => embedded.stop();
    }
  }
  const db = openDatabase(url, logger, { poolMax: 1 });
  try {
    const hash = await hashPassword(clientPasswordDigest(password));
    const rows = await db.query<{ username: string }>(
      `UPDATE admin_accounts SET password_hash = $1, username = COALESCE($2, username), token_version = token_version + 1, updated_at = now()
       WHERE id = (SELECT id FROM admin_accounts ORDER BY id LIMIT 1) RETURNING username`,
      [hash, values.username ?? null],
    );
    if (rows.length === 0) throw new Error('There is no administrator account yet: open Reelstat to create one');
    process.stdout.write(`Password reset for "${rows[0]!.username}". Existing logins were signed out.\n`);
  } finally {
    await db.close();
    await stopEmbedded?.();
  }
}

async function ask(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new Error('No terminal to ask on: pass --password-file FILE');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `reset-password: ${(error as Error).message}`}\n`);
  process.exit(1);
});
