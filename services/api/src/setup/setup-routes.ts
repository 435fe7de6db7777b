import { Router } from 'express';
import { readSetupState, VERSION, type Runtime } from '@reelstat/core';

export function setupRoutes(runtime: Runtime): Router {
  const router = Router();
  router.get('/auth/isConfigured', async (_req, res) => {
    res.json({ state: await readSetupState(runtime.db), version: VERSION });
  });
  return router;
}
