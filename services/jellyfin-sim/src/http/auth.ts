/** Token extraction exactly as Jellyfin's AuthorizationContext reads it (§2), with the legacy toggle. */
import type { IncomingMessage } from 'node:http';
import type { Params } from './params.js';

export interface AuthHeader {
  token?: string;
  client?: string;
  device?: string;
  deviceId?: string;
  version?: string;
  userId?: string;
}

/** Parses `MediaBrowser Token="…", Client="…"` (quotes optional, values URL-decoded). */
export function parseAuthorization(value: string | undefined, allowEmbyScheme: boolean): AuthHeader | undefined {
  if (!value) return undefined;
  const m = /^\s*(\S+)\s+(.*)$/s.exec(value);
  if (!m) return undefined;
  const scheme = (m[1] as string).toLowerCase();
  if (scheme !== 'mediabrowser' && !(allowEmbyScheme && scheme === 'emby')) return undefined;
  const out: AuthHeader = {};
  for (const part of (m[2] as string).split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let v = part.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    try {
      v = decodeURIComponent(v);
    } catch {
      // keep the raw value
    }
    if (key === 'token') out.token = v;
    else if (key === 'client') out.client = v;
    else if (key === 'device') out.device = v;
    else if (key === 'deviceid') out.deviceId = v;
    else if (key === 'version') out.version = v;
    else if (key === 'userid') out.userId = v;
  }
  return out;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

/** Returns the auth header info and the token from the first non-empty source. */
export function extractAuth(req: IncomingMessage, params: Params, legacy: boolean): AuthHeader {
  let info = parseAuthorization(header(req, 'authorization'), legacy);
  if (!info && legacy && !header(req, 'authorization')) info = parseAuthorization(header(req, 'x-emby-authorization'), true);
  const out: AuthHeader = { ...(info ?? {}) };
  if (!out.token && legacy) out.token = header(req, 'x-emby-token') ?? header(req, 'x-mediabrowser-token');
  if (!out.token) out.token = params.get('ApiKey');
  if (!out.token && legacy) out.token = params.get('api_key');
  return out;
}
