/**
 * The one error every media-server call throws. Callers branch on `kind`, never on message text; the message
 * is for people and names the request path (the API key is sent in a header, so it never appears in a path).
 */
export type MediaServerErrorKind =
  /** Nothing usable answered: connection refused, DNS failure, reset, TLS failure or timeout (the message says which). */
  | 'network'
  /** 401: the API key was rejected. */
  | 'unauthorized'
  /** 403: the key is valid but may not do this (e.g. a non-admin user token). */
  | 'forbidden'
  /** 404: unknown id, a route the server does not have, or a plugin that is not installed. */
  | 'not_found'
  /** Any other non-2xx status (see `status`). */
  | 'http'
  /** A 2xx answer that is not JSON, or JSON that fails validation (the message names the field). */
  | 'invalid_response'
  /** The request itself was refused before sending: bad server URL, malformed id, image parameter out of range. */
  | 'invalid_request'
  /** Playback Reporting answered 200 with an error `message` (e.g. an SQL error). */
  | 'query_failed';

export interface MediaServerErrorDetails {
  status?: number;
  method?: string;
  /** URL path of the request, including a base path such as /emby; never the query string. */
  path?: string;
  /** Whether the client retried before giving up (attempts made). */
  attempts?: number;
  cause?: unknown;
}

export class MediaServerError extends Error {
  readonly kind: MediaServerErrorKind;
  readonly status?: number;
  readonly method?: string;
  readonly path?: string;
  readonly attempts?: number;

  constructor(kind: MediaServerErrorKind, message: string, details: MediaServerErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'MediaServerError';
    this.kind = kind;
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.attempts = details.attempts;
  }
}

export function isMediaServerError(value: unknown, kind?: MediaServerErrorKind): value is MediaServerError {
  return value instanceof MediaServerError && (kind === undefined || value.kind === kind);
}
