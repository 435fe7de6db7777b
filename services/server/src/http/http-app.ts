import express, { type Express } from 'express';
import { AppError, type HttpHandler, type Role, type Runtime } from '@reelstat/core';
import { requestLogging, requestMetrics } from './request-context.js';
import { errorHandler, notFoundHandler, sendError } from './error-handler.js';
import { opsRoutes } from './ops-routes.js';
import { securityHeaders } from './security-headers.js';

/**
 * The HTTP app every process serves: probes and metrics always, the API and dashboard when the process runs
 * the api role. The server listens before migrations finish so that /readyz can say 503; API calls made in
 * that window get a 503 too rather than a half-migrated database. `accepting` turns /readyz off while stopping.
 */
export function createHttpApp(
  runtime: Runtime,
  roles: () => Role[],
  handlers: HttpHandler[],
  accepting: () => boolean = () => true,
): Express {
  const app = express();
  app.disable('x-powered-by');
  // Only configured proxies may say who the client is (X-Forwarded-For): the login rate limit keys on it.
  app.set('trust proxy', runtime.config.trustProxy);
  app.use(securityHeaders());
  app.use(requestMetrics(runtime.metrics));
  app.use(requestLogging(runtime.logger.child({ component: 'http' })));
  // Probes sit at the root so that Kubernetes finds them whatever BASE_URL is, and under BASE_URL too.
  const ops = opsRoutes(runtime, roles, accepting);
  app.use(ops);
  if (handlers.length > 0) {
    const base = express.Router();
    if (runtime.config.baseUrl) base.use(ops);
    base.use((_req, res, next) => {
      if (runtime.migrated) return next();
      res.setHeader('Retry-After', '2');
      sendError(res, new AppError(503, 'starting', 'Reelstat is starting; try again in a few seconds'));
    });
    for (const handler of handlers) base.use(handler);
    app.use(runtime.config.baseUrl || '/', base);
  }
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
