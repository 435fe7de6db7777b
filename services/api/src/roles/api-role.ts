import express, { Router } from 'express';
import type { Runtime } from '@reelstat/core';
import { ApiRoutes } from '../http/api-routes.js';
import { authenticate } from '../auth/authenticate.js';
import { authRoutes } from '../auth/auth-routes.js';
import { settingsRoutes } from '../settings/settings-routes.js';
import { apiKeysRoutes } from '../api-keys/api-keys-routes.js';
import { staticWeb } from '../web/static-web.js';
import { syncRoutes } from '../sync/sync-routes.js';
import { tasksRoutes } from '../tasks/tasks-routes.js';
import { statsRoutes } from '../stats/stats-routes.js';
import { historyRoutes } from '../history/history-routes.js';
import { libraryRoutes } from '../library/library-routes.js';
import { apiDocsRoute } from '../openapi/openapi-document.js';
import { utilsRoutes } from '../utils/utils-routes.js';
import { imagesRoutes } from '../images/images-routes.js';
import { activityRoutes } from '../activity/activity-routes.js';

/** Every JSON route, one list per domain. Routes are thin: parse, authorise, call a core service. */
export function createApiRoutes(runtime: Runtime): ApiRoutes {
  const routes = new ApiRoutes(runtime).add(
    ...authRoutes,
    ...settingsRoutes,
    ...apiKeysRoutes,
    ...statsRoutes,
    ...historyRoutes,
    ...libraryRoutes,
    ...utilsRoutes,
    ...imagesRoutes,
    ...syncRoutes,
    ...tasksRoutes,
    ...activityRoutes,
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
