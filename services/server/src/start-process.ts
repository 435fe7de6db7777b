import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { AddressInfo, Socket } from 'node:net';
import { Runtime, applyBootstrapConfiguration, type AppConfig, type HttpHandler, type Logger, type Role } from '@reelstat/core';
import { createHttpApp } from './http/http-app.js';
import { limitConnections } from './http/connection-limits.js';
import { roleFactories } from './roles.js';

export interface RunningProcess {
  runtime: Runtime;
  roles: Role[];
  /** The HTTP app as mounted (the OpenAPI test walks its routes). */
  httpApp: Express;
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts one Reelstat process with the roles of its configuration:
 * database → HTTP (probes answer at once, 503 until ready; each role's handler under BASE_URL) → roles attach
 * to the server → migrations → roles start.
 * `stop()` undoes it in reverse: /readyz says 503 at once and requests are still served for SHUTDOWN_DRAIN_MS (a
 * load balancer or Kubernetes Service moves new requests to other replicas meanwhile), then stop accepting
 * requests, finish work and the requests in flight, close sockets (browsers reconnect elsewhere), close
 * connections, stop PostgreSQL.
 */
export async function startProcess(config: AppConfig, logger: Logger): Promise<RunningProcess> {
  const runtime = new Runtime(config, logger);
  for (const role of config.roles) runtime.metrics.roleInfo.set({ role }, 1);
  const roles: Role[] = config.roles.map((name) => roleFactories[name]());
  const stoppers: Array<() => Promise<void>> = [];
  let server: Server | undefined;
  let httpApp: Express | undefined;
  let accepting = true;
  try {
    await runtime.connect();
    const handlers = roles.flatMap((role): HttpHandler[] => (role.httpHandler ? [role.httpHandler(runtime)] : []));
    httpApp = createHttpApp(
      runtime,
      () => roles,
      handlers,
      () => accepting,
    );
    server = createServer(httpApp);
    limitConnections(server, config.httpMaxSocketsPerClient);
    trackSockets(server);
    await listen(server, config.port, config.host);
    for (const role of roles) if (role.attach) stoppers.push(await role.attach(server, runtime));
    await runtime.migrate();
    await applyBootstrapConfiguration(runtime);
    for (const role of roles) stoppers.push(await role.start(runtime));
  } catch (error) {
    await shutdown(server, stoppers, runtime, logger);
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${port}${config.baseUrl}`;
  logger.info({ url, roles: config.roles, mode: runtime.mode }, 'Reelstat is ready');
  let stopping: Promise<void> | undefined;
  return {
    runtime,
    roles,
    httpApp: httpApp!,
    url,
    port,
    stop: () =>
      (stopping ??= (async () => {
        accepting = false;
        await drain(config.shutdownDrainMs, logger);
        await shutdown(server, stoppers, runtime, logger);
      })()),
  };
}

/** Keeps serving, readiness off, while load balancers notice (their probe period) and stop sending requests. */
async function drain(drainMs: number, logger: Logger): Promise<void> {
  if (drainMs <= 0) return;
  logger.info({ drainMs }, 'draining: not ready, still serving');
  await new Promise((resolve) => setTimeout(resolve, drainMs));
}

async function shutdown(server: Server | undefined, stoppers: Array<() => Promise<void>>, runtime: Runtime, logger: Logger) {
  logger.info('shutting down');
  const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  server?.closeIdleConnections();
  // Requests still in flight get a moment to finish, then their connections are cut, upgraded ones too (a
  // WebSocket whose peer never completes the closing handshake would otherwise hold the server open). The
  // clock starts before the roles stop: the socket gateway's stop waits for this same HTTP server to close, so
  // a connection still open would otherwise hold that stop until the forced exit (exit code 1).
  const timer = setTimeout(() => {
    server?.closeAllConnections();
    for (const socket of openSockets(server)) socket.destroy();
  }, 5000);
  for (const stop of [...stoppers].reverse()) {
    await stop().catch((error: unknown) => logger.error({ err: error }, 'error while stopping a role'));
  }
  await closed;
  clearTimeout(timer);
  await runtime.close();
  logger.info('stopped');
}

const trackedSockets = new WeakMap<Server, Set<Socket>>();

/** Every socket the server accepted and that is still open, HTTP or upgraded (`closeAllConnections` misses those). */
function trackSockets(server: Server): void {
  const sockets = new Set<Socket>();
  trackedSockets.set(server, sockets);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
}

function openSockets(server: Server | undefined): Set<Socket> {
  return (server && trackedSockets.get(server)) ?? new Set();
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
