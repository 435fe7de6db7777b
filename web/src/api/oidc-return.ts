import { setStoredToken } from '../store/preferences';

/**
 * The OpenID Connect callback sends the browser back to the dashboard with its outcome in the address's
 * fragment (#oidc_token=… or #oidc_error=…). Read once at start-up: the token is stored, the fragment removed
 * from the address bar and history at once, and an error kept for the login screen.
 */
export function takeOidcOutcome(): string | null {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const token = fragment.get('oidc_token');
  const error = fragment.get('oidc_error');
  if (!token && !error) return null;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  if (token) setStoredToken(token);
  return error;
}
