import express, { Router } from 'express';
import type { Runtime } from '@reelstat/core';
import { setupRoutes } from '../setup/setup-routes.js';
import { staticWeb } from '../web/static-web.js';

/** The api role's routes: every JSON route of SPEC.md §7 and the dashboard. Routes are thin; domains live in core. */
export function createApiRouter(runtime: Runtime): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }));
  router.use(setupRoutes(runtime));
  router.use(staticWeb(runtime.config.baseUrl));
  return router;
}
