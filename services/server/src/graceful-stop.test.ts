// SIGTERM with a request still in flight: the process must finish its shutdown itself (exit code 0), cutting the
// connection after its grace, rather than be ended by the forced exit (code 1) at SHUTDOWN_TIMEOUT_MS. The socket
// gateway's stop waits for the HTTP server to close, so a connection held open used to hold the whole shutdown.
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testRedisUrl, uniqueRedisPrefix, type TestDatabase } from '@reelstat/core/test-support/test-services.js';
import { spawnReelstat } from './test-support/spawn-reelstat.js';

describe('stopping with a request in flight', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'reelstat-graceful-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cuts a request whose body never finishes and exits 0 on SIGTERM', { timeout: 120_000 }, async () => {
    const app = await spawnReelstat({
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: uniqueRedisPrefix(),
      ROLES: 'api',
      DATA_DIR: dir,
      JWT_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: 'k'.repeat(40),
      UPDATE_CHECK_URL: '',
      LOG_LEVEL: 'warn',
      // Far above the 5 s grace, so only a shutdown that cuts the connection itself ends with 0.
      SHUTDOWN_TIMEOUT_MS: '60000',
    });
    await app.waitReady();

    // Headers complete, body announced but only partly sent: the request stays in flight (not idle).
    const client = net.connect(app.port, '127.0.0.1');
    const closedByServer = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.on('error', () => undefined);
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    const head = 'POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    await new Promise<void>((resolve) => client.write(`${head}{"user`, () => resolve()));
    // A later request on another connection is answered after the server has read this one's headers (the bytes
    // arrived first): from then on it is a request in flight, which closing idle connections leaves alone.
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);

    app.child.kill('SIGTERM');
    await closedByServer;
    expect(await app.exited, app.output()).toBe(0);
  });
});
