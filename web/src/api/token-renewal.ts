import { getStoredToken, setStoredToken } from '../store/preferences';
import { apiBase } from './api-base';

/** How often an open dashboard checks whether its token is due for renewal. */
const CHECK_EVERY_MS = 60_000;

/** The issue and expiry times (seconds) of a stored login token, or undefined for anything else. */
export function tokenTimes(token: string): { iat: number; exp: number } | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { iat?: unknown; exp?: unknown };
    return typeof claims.iat === 'number' && typeof claims.exp === 'number' ? { iat: claims.iat, exp: claims.exp } : undefined;
  } catch {
    return undefined;
  }
}

/** True once half of the token's life has passed (and it has not expired: an expired token cannot be renewed). */
export function isDueForRenewal(token: string, nowMs = Date.now()): boolean {
  const times = tokenTimes(token);
  if (!times) return false;
  const now = nowMs / 1000;
  return now >= (times.iat + times.exp) / 2 && now < times.exp;
}

let renewing: Promise<void> | undefined;

type RenewalListener = (token: string) => void;
const renewalListeners = new Set<RenewalListener>();

/** Called with each renewed token (the socket sends it to the server: socket/socket-auth.ts). Returns the unsubscribe. */
export function onTokenRenewed(listener: RenewalListener): () => void {
  renewalListeners.add(listener);
  return () => renewalListeners.delete(listener);
}

/**
 * Login tokens are short-lived (TOKEN_TTL_HOURS, 1 hour by default): the dashboard swaps its token for a fresh
 * one (POST /auth/renew) once half of its life has passed, before a call and every minute while open. A failed
 * renewal changes nothing: the token works until it expires, then the next call's 401 leads to the login screen.
 */
export function renewTokenIfDue(): Promise<void> {
  const token = getStoredToken();
  if (!token || !isDueForRenewal(token)) return Promise.resolve();
  renewing ??= fetch(`${apiBase}/auth/renew`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
    .then(async (response) => {
      if (!response.ok) return;
      const answer = (await response.json()) as { token?: unknown };
      // Only if nobody replaced the token meanwhile (logout, login, password change).
      if (typeof answer.token === 'string' && getStoredToken() === token) {
        setStoredToken(answer.token);
        for (const listener of renewalListeners) listener(answer.token);
      }
    })
    .catch(() => undefined)
    .finally(() => {
      renewing = undefined;
    });
  return renewing;
}

/** Starts the periodic check; returns its stop. */
export function startTokenRenewal(): () => void {
  const timer = setInterval(() => void renewTokenIfDue(), CHECK_EVERY_MS);
  void renewTokenIfDue();
  return () => clearInterval(timer);
}
