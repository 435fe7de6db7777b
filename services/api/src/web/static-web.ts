import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';

/** Paths of the JSON API: never answered with the dashboard, so a wrong API call gets a JSON 404. */
const API_PATH = /^\/(api|auth|stats|sync|backup|logs|webhooks|proxy|utils|socket\.io|api-docs)(\/|$)/;

/** Where the built dashboard lives (web/dist), relative to this file in both src and dist layouts. */
export function findWebRoot(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidate = path.resolve(here, '../../../../web/dist');
  return existsSync(path.join(candidate, 'index.html')) ? candidate : undefined;
}

/**
 * Serves the built React app with a fallback to index.html for client-side routes. Hashed assets are cached
 * for a year; index.html never, so a new release is picked up at once. BASE_URL is injected so the app knows
 * its sub-path.
 */
export function staticWeb(baseUrl: string): Router {
  const router = Router();
  const root = findWebRoot();
  if (!root) {
    router.get('/', (_req, res) => {
      res
        .type('html')
        .send(
          '<!doctype html><title>Reelstat</title><p>Reelstat is running. The dashboard has not been built: run <code>npm run build</code>.</p>',
        );
    });
    return router;
  }
  // Assets are referenced relative to <base href>, so one build works under any BASE_URL.
  const indexHtml = readFileSync(path.join(root, 'index.html'), 'utf8').replace(
    '<head>',
    `<head><base href="${baseUrl}/"><meta name="reelstat-base-url" content="${baseUrl}">`,
  );
  router.use('/assets', express.static(path.join(root, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  router.use(express.static(root, { index: false, maxAge: 0 }));
  router.get(/.*/, (req, res, next) => {
    if (API_PATH.test(req.path) || !req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(indexHtml);
  });
  return router;
}
