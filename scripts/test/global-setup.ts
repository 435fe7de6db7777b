import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { EmbeddedPostgres } from '../../services/core/src/db/embedded-postgres.js';
import { freePort, waitFor } from '../../services/core/src/test-support/test-kit.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL URL with the right to CREATE DATABASE; each test file makes its own database. */
    postgresAdminUrl: string;
    redisUrl: string;
  }
}

/**
 * Real services for the integration tests: DATABASE_URL / REDIS_URL when set, otherwise an embedded
 * PostgreSQL and a redis-server (from the system's packages) started here and stopped at the end.
 */
export default async function setup(project: TestProject) {
  const cleanups: Array<() => Promise<void>> = [];
  const logger = pino({ level: 'warn' });

  let postgresAdminUrl = process.env.DATABASE_URL;
  if (!postgresAdminUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), 'reelstat-test-pg-'));
    const embedded = new EmbeddedPostgres(dir, logger);
    postgresAdminUrl = await embedded.start();
    cleanups.push(async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    });
  }

  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    const which = spawnSync('sh', ['-c', 'command -v redis-server']);
    if (which.status !== 0) {
      throw new Error('The tests need Redis: set REDIS_URL, or install redis-server (Debian/Ubuntu: apt-get install -y redis-server).');
    }
    const port = await freePort();
    const redis: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForPort(port);
    redisUrl = `redis://127.0.0.1:${port}`;
    cleanups.push(async () => {
      redis.kill('SIGTERM');
      await new Promise((resolve) => redis.once('exit', resolve));
    });
  }

  project.provide('postgresAdminUrl', postgresAdminUrl);
  project.provide('redisUrl', redisUrl);
  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
}

/** Waits until something accepts connections on the port (test-kit's waitFor). */
async function waitForPort(port: number) {
  const net = await import('node:net');
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  await waitFor(`redis-server on port ${port}`, accepts, { timeoutMs: 10_000, intervalMs: 100 });
}
