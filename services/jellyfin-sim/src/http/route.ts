/** A route of the simulated media-server REST surface (§3), and what its controllers share. */
import type { RequestContext } from './context.js';
import { HttpError } from './params.js';

export type AuthLevel = 'anon' | 'user' | 'admin';

export interface Route {
  methods: string[];
  pattern: RegExp;
  auth: AuthLevel;
  flavors?: ('jellyfin' | 'emby')[];
  /** Paged list endpoint: subject to the slow-pages fault. */
  paged?: boolean;
  handle(ctx: RequestContext): Promise<void> | void;
}

const GUIDISH = '([^/]+)';

export function route(
  methods: string | string[],
  path: string,
  auth: AuthLevel,
  handle: Route['handle'],
  extra: Partial<Route> = {},
): Route {
  const pattern = new RegExp(`^${path.replace(/\{[a-zA-Z]+\}/g, GUIDISH)}$`, 'i');
  return { methods: Array.isArray(methods) ? methods : [methods], pattern, auth, handle, ...extra };
}

export const notFound = (): never => {
  throw new HttpError(404);
};

/** The caller's address as the server sees it (IPv4-mapped IPv6 unwrapped). */
export function remoteAddress(ctx: RequestContext): string {
  const a = ctx.req.socket.remoteAddress ?? '127.0.0.1';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}
