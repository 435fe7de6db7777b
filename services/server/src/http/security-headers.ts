import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** The only third-party page the dashboard embeds: the OpenStreetMap map of a session's location. */
const MAP_EMBED_ORIGIN = 'https://www.openstreetmap.org';

/**
 * Security headers on every response (dashboard, API, probes), by helmet. The Content-Security-Policy allows
 * scripts from our own origin only (the built dashboard has no inline script); images from our origin
 * (the image proxy), and the blob:/data: URLs the dashboard makes of them; the map embed as the one frame; and
 * no one may frame us. Inline *styles* stay allowed: the chart library positions tooltips with style
 * attributes, and a style cannot run code.
 *
 * `upgrade-insecure-requests` is left out: most installs are plain HTTP on a home network, where it would
 * break every request. HSTS is sent only on HTTPS requests (directly, or through a trusted proxy that says so).
 */
export function securityHeaders(): RequestHandler[] {
  const hsts = helmet.strictTransportSecurity({ maxAge: 180 * 24 * 3600 });
  return [
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameSrc: [MAP_EMBED_ORIGIN],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          scriptSrcAttr: ["'none'"],
        },
      },
      strictTransportSecurity: false,
      referrerPolicy: { policy: 'no-referrer' },
      xFrameOptions: { action: 'deny' },
    }),
    (req, res, next) => (req.secure ? hsts(req, res, next) : next()),
  ];
}
