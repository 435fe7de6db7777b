import { Router } from 'express';
import type { Role, Runtime } from '@reelstat/core';

/**
 * Probes and metrics, served by every process whatever its roles.
 * /healthz: the process is alive. /readyz: it can do its job (database reachable and migrated, each role's
 * own checks such as "leader state known"); 503 until then, and again from the moment the process is asked to stop
 * (`accepting` false), so that a load balancer sends no new requests while it drains.
 */
export function opsRoutes(runtime: Runtime, roles: () => Role[], accepting: () => boolean = () => true): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const checks: Record<string, boolean> = {
      database: runtime.db ? await runtime.db.isReachable() : false,
      migrations: runtime.migrated,
      accepting: accepting(),
    };
    for (const role of roles()) {
      for (const [name, ok] of Object.entries(role.readiness?.() ?? {})) checks[`${role.name}.${name}`] = ok;
    }
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks });
  });
  if (runtime.config.metricsEnabled) {
    router.get('/metrics', async (_req, res, next) => {
      if (!runtime.config.metricsPublic) {
        // Private metrics are scraped through the API's authentication (added with the auth issue).
        return next();
      }
      res.setHeader('Content-Type', runtime.metrics.registry.contentType);
      res.send(await runtime.metrics.registry.metrics());
    });
  }
  return router;
}
