import type { Server } from 'node:http';
import express, { Router } from 'express';
import type { Server as SocketServer } from 'socket.io';
import type { HttpHandler, Role, Runtime } from '@reelstat/core';
import { attachSocketGateway } from '../socket/socket-gateway.js';
import { ApiRoutes } from '../http/api-routes.js';
import { authenticate } from '../auth/authenticate.js';
import { authRoutes } from '../auth/auth-routes.js';
import { signInSettingsRoutes } from '../auth/sign-in-settings-routes.js';
import { oidcRoutes } from '../auth/oidc-routes.js';
import { settingsRoutes } from '../settings/settings-routes.js';
import { apiKeysRoutes } from '../api-keys/api-keys-routes.js';
import { staticWeb } from '../web/static-web.js';
import { syncRoutes } from '../sync/sync-routes.js';
import { tasksRoutes } from '../tasks/tasks-routes.js';
import { statsRoutes } from '../stats/stats-routes.js';
import { historyRoutes } from '../history/history-routes.js';
import { exportRoutes } from '../export/export-routes.js';
import { yearReviewRoutes } from '../stats/year-review-routes.js';
import { libraryRoutes } from '../library/library-routes.js';
import { apiDocsRoute } from '../openapi/openapi-document.js';
import { utilsRoutes } from '../utils/utils-routes.js';
import { imagesRoutes } from '../images/images-routes.js';
import { activityRoutes } from '../activity/activity-routes.js';
import { backupRoutes } from '../backup/backup-routes.js';
import { webhooksRoutes } from '../webhooks/webhooks-routes.js';
import { mediaServersRoutes } from '../media-servers/media-servers-routes.js';

/** Every JSON route, one list per domain. Routes are thin: parse, authorise, call a core service. */
export function createApiRoutes(runtime: Runtime): ApiRoutes {
  const routes = new ApiRoutes(runtime).add(
    ...authRoutes,
    ...signInSettingsRoutes,
    ...oidcRoutes,
    ...settingsRoutes,
    ...mediaServersRoutes,
    ...apiKeysRoutes,
    ...statsRoutes,
    ...yearReviewRoutes,
    ...historyRoutes,
    ...exportRoutes,
    ...libraryRoutes,
    ...utilsRoutes,
    ...imagesRoutes,
    ...syncRoutes,
    ...tasksRoutes,
    ...activityRoutes,
    ...backupRoutes,
    ...webhooksRoutes,
  );
  return routes.add(apiDocsRoute(() => routes.definitions));
}

/** The api role's router: body parsing, authentication, the JSON routes, then the dashboard. */
export function createApiRouter(runtime: Runtime, routes = createApiRoutes(runtime)): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }));
  router.use(authenticate(runtime));
  router.use(routes.router);
  router.use(staticWeb(runtime.config.baseUrl));
  return router;
}

/**
 * The api role: the JSON routes and the dashboard (mounted under BASE_URL by the composition root) and the
 * socket.io gateway. It has no background work of its own.
 */
export class ApiRole implements Role {
  readonly name = 'api';
  /** The JSON routes, once mounted (the OpenAPI document and route tests read them). */
  routes: ApiRoutes | undefined;
  /** The socket.io server, once attached. */
  io: SocketServer | undefined;

  httpHandler(runtime: Runtime): HttpHandler {
    this.routes = createApiRoutes(runtime);
    return createApiRouter(runtime, this.routes) as unknown as HttpHandler;
  }

  async attach(server: Server, runtime: Runtime): Promise<() => Promise<void>> {
    const gateway = await attachSocketGateway(server, runtime);
    this.io = gateway.io;
    return gateway.close;
  }

  async start(): Promise<() => Promise<void>> {
    return async () => {};
  }
}

/** The api role among a process's roles, if it runs one. */
export function findApiRole(roles: readonly Role[]): ApiRole | undefined {
  return roles.find((role): role is ApiRole => role instanceof ApiRole);
}
