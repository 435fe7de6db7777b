import { AppError, type MediaUserRef, type Principal, type Runtime } from '@reelstat/core';

/**
 * Who may call a route, declared on the route (`access`) and enforced by ApiRoutes for every route, before the
 * handler runs (docs/security.md, "Roles"):
 * - 'public': anyone (the short documented list in docs/security.md);
 * - 'setup': anyone, but only in the first-run state the handler checks;
 * - 'admin': administrators only: the local administrator, a media-server or OIDC sign-in with the admin
 *   role, an API key, or anyone when require-login is off. Viewers get 403;
 * - 'own-user': administrators, and viewers about their own media-server user only: the route's `userOf`
 *   names the user the call is about, and any other id is a 403 for a viewer;
 * - 'signed-in': anyone signed in; the handler answers a viewer about themselves only (RouteContext.viewer);
 * - 'server-stats': administrators, and viewers when the administrator lets them see the server-wide home
 *   cards (setting VIEWERS_SEE_SERVER_STATS); nothing in the answer may name another user.
 * - 'own-plays': anyone signed in, about an item or a library: a viewer gets its metadata and their OWN plays
 *   of it (RouteContext.viewer; library/viewer-scope.ts), everyone's figures only when VIEWERS_SEE_SERVER_STATS
 *   is on, and never another user's name, address or plays.
 * A viewer's calls always act on the media server their account is on (another serverId, or "all", is a 403).
 */
export type Access = 'public' | 'setup' | 'admin' | 'own-user' | 'signed-in' | 'server-stats' | 'own-plays';

/** The access levels that need a signed-in caller. */
export const SIGNED_IN_ACCESS: ReadonlySet<Access> = new Set(['admin', 'own-user', 'signed-in', 'server-stats', 'own-plays']);

/** 401 without a principal, 403 for a viewer on a route that does not admit them (before any input is read). */
export async function checkAccess(definition: { access: Access }, principal: Principal | undefined, runtime: Runtime): Promise<void> {
  const { access } = definition;
  if (!SIGNED_IN_ACCESS.has(access)) return;
  if (!principal) throw AppError.unauthorized();
  if (principal.role === 'admin') return;
  if (access === 'admin') throw AppError.forbidden('Only an administrator may do this');
  if (access === 'server-stats' && !(await runtime.services.settings.get('VIEWERS_SEE_SERVER_STATS')))
    throw AppError.forbidden("The administrator has not shared the server's statistics with viewers");
}

/** A viewer on an 'own-user' route: the user the call is about must be their own. */
export function checkOwnUser(userId: string | undefined, own: MediaUserRef | undefined): void {
  if (!own) throw AppError.forbidden('Your sign-in is not linked to a media-server user');
  if (userId === undefined || userId.toLowerCase() !== own.userId.toLowerCase())
    throw AppError.forbidden('Viewers see their own statistics only');
}

/** The server a viewer's call acts on: their own; naming another one (or "all") is a 403. */
export function viewerServerId(principal: Principal, raw: unknown): string | undefined {
  const own = principal.mediaUser?.serverId;
  if (raw === undefined || raw === null || raw === '') return own;
  if (typeof raw !== 'string' || !own || raw.toLowerCase() !== own.toLowerCase())
    throw AppError.forbidden('Viewers see their own media server only');
  return own;
}
