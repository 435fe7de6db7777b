/** Turns what went wrong on the wire (a status, a thrown fetch error) into MediaServerError kinds and messages. */
import type { MediaServerErrorKind } from './media-server-error.js';
import { isRetryableStatus } from './retry-policy.js';

export interface Failure {
  kind: MediaServerErrorKind;
  /** Message without the request prefix. */
  detail: string;
  retryable: boolean;
  status?: number;
  cause?: unknown;
}

/** Thrown into the per-attempt AbortController when the timeout fires, to tell a timeout from a caller's abort. */
export class AttemptTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'AttemptTimeout';
  }
}

export function statusFailure(status: number, statusText: string, body: string, contentType: string | null): Failure {
  const retryable = isRetryableStatus(status);
  const label = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  switch (status) {
    case 401:
      return { kind: 'unauthorized', status, retryable: false, detail: `the media server rejected the API key (${label})` };
    case 403:
      return {
        kind: 'forbidden',
        status,
        retryable: false,
        detail: `access denied (${label}): the API key or user is not allowed to do this (an administrator is needed)`,
      };
    case 404:
      return { kind: 'not_found', status, retryable: false, detail: `not found (${label})` };
    default: {
      const snippet = textSnippet(body, contentType);
      return { kind: 'http', status, retryable, detail: snippet ? `${label}: ${snippet}` : label };
    }
  }
}

/** A short plain-text error body is worth showing ("Error processing request."); an HTML page is not. */
function textSnippet(body: string, contentType: string | null): string {
  const type = (contentType ?? '').toLowerCase();
  if (!body.trim() || type.includes('html') || /^\s*</.test(body)) return '';
  const oneLine = body.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 197)}...` : oneLine;
}

const TLS_CODES = /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_)/;

/** A rejected fetch (or body read): refused, unknown host, reset, TLS, or our own timeout. */
export function networkFailure(error: unknown, host: string, timedOut: AttemptTimeout | undefined): Failure {
  if (timedOut)
    return { kind: 'network', retryable: true, detail: `timed out: no answer from ${host} within ${timedOut.timeoutMs} ms`, cause: error };
  const code = errorCode(error);
  const base = { kind: 'network' as const, cause: error };
  switch (code) {
    case 'ECONNREFUSED':
      return { ...base, retryable: true, detail: `could not connect to ${host} (connection refused)` };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { ...base, retryable: code === 'EAI_AGAIN', detail: `could not resolve the host name of ${host} (${code})` };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return { ...base, retryable: true, detail: `the connection to ${host} was closed unexpectedly (${code})` };
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { ...base, retryable: true, detail: `timed out connecting to ${host} (${code})` };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { ...base, retryable: true, detail: `${host} is unreachable (${code})` };
    default:
      if (code && TLS_CODES.test(code)) return { ...base, retryable: false, detail: `TLS error talking to ${host} (${code})` };
      return { ...base, retryable: true, detail: `could not reach ${host} (${code ?? messageOf(error)})` };
  }
}

function errorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    const nested = (current as { errors?: unknown }).errors;
    if (Array.isArray(nested) && nested.length > 0) {
      const inner = errorCode(nested[0]);
      if (inner) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
