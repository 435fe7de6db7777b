import { createServer, type Server } from 'node:http';
import type { Server as SocketServer } from 'socket.io';
import type { AddressInfo } from 'node:net';
import { Runtime, applyBootstrapConfiguration, type AppConfig, type Logger, type Role, type RoleName } from '@reelstat/core';
import { SchedulerRole } from '@reelstat/scheduler';
import { DispatcherRole } from '@reelstat/dispatcher';
import { OperatorRole } from '@reelstat/operator';
import { createHttpApp } from '../server/http-app.js';
import { createApiRouter, createApiRoutes } from '../roles/api-role.js';
import type { ApiRoutes } from '../http/api-routes.js';
import { attachSocketGateway } from '../socket/socket-gateway.js';

export interface RunningProcess {
  runtime: Runtime;
  roles: Role[];
  url: string;
  port: number;
  /** The JSON routes, when this process runs the api role (for the OpenAPI document and route tests). */
  apiRoutes: ApiRoutes | undefined;
  /** The socket.io server, when this process runs the api role. */
  io: SocketServer | undefined;
  stop(): Promise<void>;
}

const backgroundRoles: Record<Exclude<RoleName, 'api'>, () => Role> = {
  scheduler: () => new SchedulerRole(),
  dispatcher: () => new DispatcherRole(),
  operator: () => new OperatorRole(),
};

/**
 * Starts one Reelstat process with the roles of its configuration:
 * database → HTTP (probes answer at once, 503 until ready) → migrations → background roles.
 * `stop()` undoes it in reverse: stop accepting requests, finish work, close connections, stop PostgreSQL.
 */
export async function startProcess(config: AppConfig, logger: Logger): Promise<RunningProcess> {
  const runtime = new Runtime(config, logger);
  for (const role of config.roles) runtime.metrics.roleInfo.set({ role }, 1);
  const roles: Role[] = config.roles
    .filter((name): name is Exclude<RoleName, 'api'> => name !== 'api')
    .map((name) => backgroundRoles[name]());
  const stoppers: Array<() => Promise<void>> = [];
  let server: Server | undefined;
  let io: SocketServer | undefined;
  let apiRoutes: ApiRoutes | undefined;
  try {
    await runtime.connect();
    apiRoutes = config.roles.includes('api') ? createApiRoutes(runtime) : undefined;
    const apiRouter = apiRoutes ? createApiRouter(runtime, apiRoutes) : undefined;
    server = createServer(createHttpApp(runtime, () => roles, apiRouter));
    server.keepAliveTimeout = 65_000;
    await listen(server, config.port, config.host);
    if (apiRouter) {
      const gateway = await attachSocketGateway(server, runtime);
      io = gateway.io;
      stoppers.push(gateway.close);
    }
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
    url,
    port,
    apiRoutes,
    io,
    stop: () => (stopping ??= shutdown(server, stoppers, runtime, logger)),
  };
}

async function shutdown(server: Server | undefined, stoppers: Array<() => Promise<void>>, runtime: Runtime, logger: Logger) {
  logger.info('shutting down');
  const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  server?.closeIdleConnections();
  for (const stop of [...stoppers].reverse()) {
    await stop().catch((error: unknown) => logger.error({ err: error }, 'error while stopping a role'));
  }
  // Requests still in flight get a moment to finish, then their connections are cut.
  const timer = setTimeout(() => server?.closeAllConnections(), 5000);
  await closed;
  clearTimeout(timer);
  await runtime.close();
  logger.info('stopped');
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
