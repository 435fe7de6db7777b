/**
 * Media-server ids as they may appear in a URL path: Jellyfin GUIDs (32 hex digits, or dashed) and Emby's
 * numeric ids. Anything else is refused before a request is built, so an id can never inject a path.
 */
import { MediaServerError } from './media-server-error.js';

const HEX32 = /^[0-9a-f]{32}$/i;
const DASHED_GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMERIC = /^\d{1,19}$/;

export function isMediaServerId(value: string): boolean {
  return HEX32.test(value) || DASHED_GUID.test(value) || NUMERIC.test(value);
}

/** Returns the id in canonical form (lowercase 32 hex, or the numeric string); throws 'invalid_request' otherwise. */
export function canonicalMediaServerId(value: string, what = 'id'): string {
  if (typeof value !== 'string' || !isMediaServerId(value)) {
    throw new MediaServerError('invalid_request', `Invalid ${what}: expected 32 hexadecimal digits or a number`);
  }
  return NUMERIC.test(value) ? value : value.replace(/-/g, '').toLowerCase();
}
