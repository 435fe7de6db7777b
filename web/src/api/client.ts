import { apiBase } from './api-base';
import { getStoredToken } from '../store/preferences';
import { renewTokenIfDue } from './token-renewal';
import { forgetSelectedServer, serverIdFor } from '../store/server-selection';

/** Every failed call: the HTTP status (0 when no answer came) and the server's message from its one error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Send no token (public calls made before login). */
  anonymous?: boolean;
}

/** A call's URL; calls scoped to a media server carry the selected one as serverId (unless the query names one). */
export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  const serverId = serverIdFor(path);
  if (serverId && query?.serverId === undefined) params.set('serverId', serverId);
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) params.set(key, String(value));
  const search = params.toString();
  return `${apiBase}${path}${search ? `?${search}` : ''}`;
}

export function authHeaders(): Record<string, string> {
  const token = getStoredToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The one request helper: base URL, bearer token, JSON in and out, errors as ApiError with the server's message. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  if (!options.anonymous) await renewTokenIfDue();
  const headers: Record<string, string> = options.anonymous ? {} : authHeaders();
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Network error');
  }
  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const body = data as { message?: unknown; errorMessage?: unknown; code?: unknown } | string | undefined;
    const message =
      typeof body === 'string' && body.length < 500
        ? body
        : typeof body === 'object' && body !== null && typeof body.message === 'string'
          ? body.message
          : typeof body === 'object' && body !== null && typeof body.errorMessage === 'string'
            ? body.errorMessage
            : `Error : ${response.status}`;
    const code = typeof body === 'object' && typeof body?.code === 'string' ? body.code : undefined;
    // The remembered server is gone (another install on this address, a restored database): use the default one.
    if (code === 'media_server_not_found' && serverIdFor(path) && options.query?.serverId === undefined) forgetSelectedServer();
    throw new ApiError(response.status, message, code);
  }
  return data as T;
}

/** The text to show for any failure: the server's message when there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
