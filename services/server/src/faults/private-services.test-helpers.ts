// Private backing services for the fault suite: a PostgreSQL and a redis-server that only this test uses, on
// random ports, so a test may kill and restart them without touching the machine's shared instances.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import pino from 'pino';
import { EmbeddedPostgres, findFreePort } from '@reelstat/core';
import { freshDataDir, until } from '../test-support/fault-harness.js';

/**
 * A PostgreSQL standing in for an external one (DATABASE_URL). The embedded binaries run it; their supervisor
 * plays the part of the service manager that restarts a database server after it stopped, on the same port.
 */
export async function startPrivatePostgres() {
  const dir = freshDataDir('private-pg');
  const server = new EmbeddedPostgres(dir, pino({ level: 'silent' }));
  const url = await server.start();
  return {
    url,
    port: server.port,
    get pid(): number {
      if (!server.pid) throw new Error('the private PostgreSQL is not running');
      return server.pid;
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A redis-server without persistence: a restart loses every key, as a cache-only Redis does. */
export async function startPrivateRedis() {
  const port = await findFreePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    child = started;
    await until(() => connects(port), `redis-server on port ${port}`, 10_000);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    /** SIGKILLs the server and resolves once it is gone. */
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const gone = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await gone;
    },
    /** Starts a fresh, empty server on the same port. */
    start: launch,
    async stop() {
      await this.kill();
    },
  };
}

/** Listens on the port (resolves undefined while it is still taken, so `until` retries). */
export function holdPort(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    // Connections (the pool retrying) are refused at once, as by a port nobody listens on.
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export function releasePort(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function connects(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(undefined));
  });
}
