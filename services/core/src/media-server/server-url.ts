/** Base-URL handling: the address a person typed, reduced to scheme://host[:port][/base-path] without a trailing slash. */
import { MediaServerError } from './media-server-error.js';

/**
 * Accepts `http://host:8096`, `http://host:8096/`, `https://host/jellyfin/` and a bare `host:8096` (http is
 * assumed). Query string and fragment are dropped. User info is refused: Node's fetch cannot send it, and a
 * password must not end up in logs.
 */
export function normalizeServerUrl(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed) throw new MediaServerError('invalid_request', 'The media server URL is empty');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new MediaServerError('invalid_request', `The media server URL is not valid: ${safeForMessage(trimmed)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MediaServerError('invalid_request', `The media server URL must start with http:// or https:// (got ${url.protocol})`);
  }
  if (url.username || url.password) {
    throw new MediaServerError('invalid_request', 'The media server URL must not contain a user name or password');
  }
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** True when the base path already ends with Emby's conventional /emby prefix. */
export function hasEmbyPrefix(baseUrl: string): boolean {
  return /\/emby$/i.test(new URL(baseUrl).pathname.replace(/\/+$/, ''));
}

/** `http://host:8096` → `http://host:8096/emby`; unchanged when the prefix is already there. */
export function withEmbyPrefix(baseUrl: string): string {
  return hasEmbyPrefix(baseUrl) ? baseUrl : `${baseUrl}/emby`;
}

/** `http://host:8096/emby` → `http://host:8096`; unchanged otherwise. */
export function withoutEmbyPrefix(baseUrl: string): string {
  return hasEmbyPrefix(baseUrl) ? baseUrl.replace(/\/emby$/i, '') : baseUrl;
}

function safeForMessage(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
