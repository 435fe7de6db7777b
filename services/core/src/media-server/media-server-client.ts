/**
 * The one place Reelstat speaks HTTP to a media server. This base class owns everything the two servers share:
 * base URL, auth header, per-attempt timeout, retries with backoff for idempotent requests, a concurrency limit,
 * response validation and error mapping. JellyfinClient and EmbyClient override only what their APIs do
 * differently (routes, parameter spelling, response envelopes).
 */
import { z } from 'zod';
import type { Logger } from '../logging/logger.js';
import { VERSION } from '../version.js';
import { AttemptTimeout, networkFailure, statusFailure, type Failure } from './http-failure.js';
import { canonicalMediaServerId } from './ids.js';
import {
  imageSizingParams,
  validatedItemImagePath,
  type ImageFetchOptions,
  type ImageRequest,
  type MediaServerImage,
  type UserImageRequest,
} from './image-request.js';
import { DETAIL_ITEM_FIELDS, itemQueryParams, type ItemPagingOptions, type ItemQuery } from './item-query.js';
import { MediaServerError } from './media-server-error.js';
import { appendQuery, type QueryParams } from './query-params.js';
import { backoffDelayMs, parseRetryAfterMs, type RetryPolicy } from './retry-policy.js';
import { itemQueryResultSchema, type BaseItemDto } from './schemas/item.js';
import type { MediaLibrary, VirtualFolderInfo } from './schemas/library.js';
import { customQueryResponseSchema, type PlaybackReportingResult } from './schemas/playback-reporting.js';
import { sessionInfoSchema, type SessionInfo } from './schemas/session.js';
import { publicSystemInfoSchema, systemInfoSchema, type PublicSystemInfo, type SystemInfo } from './schemas/system-info.js';
import { authenticationResultSchema, type AuthenticationResult, type UserDto } from './schemas/user.js';
import { describeIssues, parseWireJson } from './schemas/wire.js';
import { Semaphore } from './semaphore.js';

/** Built once: the activity monitor parses /Sessions every second, and building the schema each time shows. */
const sessionListSchema = z.array(sessionInfoSchema);

export type MediaServerKind = 'jellyfin' | 'emby';

export interface MediaServerClientOptions {
  /** The server's address as configured (trailing slashes, a base path such as /jellyfin, or /emby are fine). */
  url: string;
  apiKey: string;
  /** Per attempt, from sending the request to the last byte of a JSON body (image bodies: until headers). */
  timeoutMs?: number;
  /** Retries of idempotent requests after the first attempt, on network errors, 5xx and 429. */
  retries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** A Retry-After longer than this fails the request instead of waiting. */
  maxRetryAfterMs?: number;
  /** Requests in flight at once; further requests queue in order. */
  maxConcurrency?: number;
  /** Items per /Items page. */
  pageSize?: number;
  /** Identifies this Reelstat installation to the server (Dashboard → Devices / activity). */
  deviceId?: string;
  deviceName?: string;
  logger?: Logger;
  /** Jitter source (tests make it deterministic). */
  random?: () => number;
  /** Clock for client-side filters (Emby's activeWithinSeconds). */
  now?: () => number;
}

export const MEDIA_SERVER_CLIENT_DEFAULTS = {
  timeoutMs: 15_000,
  retries: 3,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  maxConcurrency: 4,
  pageSize: 500,
  deviceId: 'reelstat',
  deviceName: 'Reelstat',
} as const;

export interface RequestOptions {
  /** Cancels waiting, the request and any retry backoff; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface ItemPage {
  items: BaseItemDto[];
  /** Offset of the first item of this page. */
  startIndex: number;
  totalRecordCount: number;
}

export interface GetSessionsOptions extends RequestOptions {
  /** Only sessions active within this many seconds (jellyfin-web's dashboard uses 960). */
  activeWithinSeconds?: number;
}

export interface GetItemsByIdsOptions extends RequestOptions {
  fields?: readonly string[];
  /** Ids per request (default 100), keeping URLs short. */
  chunkSize?: number;
  userId?: string;
}

/** A message for a session's client: a header line, the text, and how long it stays (none: until dismissed). */
export interface SessionMessage {
  header: string;
  text: string;
  timeoutMs?: number;
}

export interface PlaybackReportingQueryOptions extends RequestOptions {
  /** The plugin replaces a column named exactly UserId by UserName. */
  replaceUserId?: boolean;
}

interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: QueryParams;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Statuses handed to the reader instead of failing (304 for conditional image requests). */
  passStatus?: readonly number[];
  /** Replaces the generic "not found" text for a 404. */
  notFound?: string;
  /** Sent without the API key: a sign-in is checked as the person, not with Reelstat's administrator key. */
  withoutApiKey?: boolean;
}

/** Where a response came from, for error messages. */
export interface RequestLabel {
  method: string;
  path: string;
}

const ITEM_CHUNK = 100;

export abstract class MediaServerClient {
  abstract readonly kind: MediaServerKind;
  /** The URL requests are built on, including Emby's /emby prefix. */
  readonly baseUrl: string;
  protected readonly logger: Logger | undefined;
  protected readonly pageSize: number;
  protected readonly now: () => number;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly semaphore: Semaphore;
  private readonly authorization: string;
  private readonly authorizationWithoutKey: string;

  protected constructor(options: MediaServerClientOptions, baseUrl: string) {
    const d = MEDIA_SERVER_CLIENT_DEFAULTS;
    if (!options.apiKey) throw new MediaServerError('invalid_request', 'An API key is required');
    this.baseUrl = baseUrl;
    this.apiKey = options.apiKey;
    this.timeoutMs = positive(options.timeoutMs ?? d.timeoutMs, 'timeoutMs');
    this.retry = {
      retries: nonNegativeInt(options.retries ?? d.retries, 'retries'),
      baseDelayMs: nonNegative(options.retryBaseDelayMs ?? d.retryBaseDelayMs, 'retryBaseDelayMs'),
      maxDelayMs: nonNegative(options.retryMaxDelayMs ?? d.retryMaxDelayMs, 'retryMaxDelayMs'),
      maxRetryAfterMs: nonNegative(options.maxRetryAfterMs ?? d.maxRetryAfterMs, 'maxRetryAfterMs'),
      random: options.random ?? Math.random,
    };
    this.semaphore = new Semaphore(options.maxConcurrency ?? d.maxConcurrency);
    this.pageSize = positiveInt(options.pageSize ?? d.pageSize, 'pageSize');
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    const device = {
      Client: 'Reelstat',
      Device: options.deviceName ?? d.deviceName,
      DeviceId: options.deviceId ?? d.deviceId,
      Version: VERSION,
    };
    this.authorization = authorizationHeader({ ...device, Token: options.apiKey });
    this.authorizationWithoutKey = authorizationHeader(device);
  }

  /** Requests in flight and waiting (for metrics and tests). */
  get load(): { inFlight: number; waiting: number } {
    return { inFlight: this.semaphore.inFlight, waiting: this.semaphore.waiting };
  }

  // ---------------------------------------------------------------- system and users

  getPublicSystemInfo(options: RequestOptions = {}): Promise<PublicSystemInfo> {
    return this.getJson('/System/Info/Public', publicSystemInfoSchema, options);
  }

  getSystemInfo(options: RequestOptions = {}): Promise<SystemInfo> {
    return this.getJson('/System/Info', systemInfoSchema, options);
  }

  abstract getUsers(options?: RequestOptions): Promise<UserDto[]>;

  async getAdminUsers(options: RequestOptions = {}): Promise<UserDto[]> {
    return (await this.getUsers(options)).filter((u) => u.Policy?.IsAdministrator === true);
  }

  /**
   * Checks a person's username and password with the media server (POST /Users/AuthenticateByName, sent
   * without the API key), then ends the media-server session it opened: only the answer is kept, never the
   * password or the session's token. Wrong credentials are `unauthorized`.
   */
  async authenticateByName(username: string, password: string, options: RequestOptions = {}): Promise<AuthenticationResult> {
    const path = '/Users/AuthenticateByName';
    const result = await this.requestJson(
      { method: 'POST', path, body: { Username: username, Pw: password }, signal: options.signal, withoutApiKey: true },
      authenticationResultSchema,
    );
    await this.execute(
      {
        method: 'POST',
        path: '/Sessions/Logout',
        headers: { Authorization: `${this.authorizationWithoutKey}, Token="${encodeURIComponent(result.AccessToken)}"` },
        withoutApiKey: true,
      },
      async () => undefined,
    ).catch((error: unknown) => this.logger?.warn({ err: String(error) }, 'could not end the sign-in check session on the media server'));
    return result;
  }

  // ---------------------------------------------------------------- libraries and items

  /** Every configured library (boxsets included; filter on collectionType as needed). Needs an admin key. */
  abstract getLibraries(options?: RequestOptions): Promise<MediaLibrary[]>;

  /**
   * Pages through /Items with bounded memory: one page in flight, yielded as soon as it arrives. Stops after
   * TotalRecordCount items or at the first short page.
   */
  async *iterateItems(query: ItemQuery = {}, paging: ItemPagingOptions = {}): AsyncGenerator<ItemPage, void, undefined> {
    const pageSize = positiveInt(paging.pageSize ?? this.pageSize, 'pageSize');
    const params = itemQueryParams(query);
    let startIndex = nonNegativeInt(paging.startIndex ?? 0, 'startIndex');
    for (;;) {
      const page = await this.getJson('/Items', itemQueryResultSchema, {
        query: { ...params, startIndex, limit: pageSize },
        signal: paging.signal,
      });
      if (page.StartIndex !== undefined && page.StartIndex !== startIndex) {
        throw new MediaServerError(
          'invalid_response',
          `GET ${this.pathOf('/Items')}: asked for StartIndex ${startIndex}, got ${page.StartIndex}`,
          {
            method: 'GET',
            path: this.pathOf('/Items'),
          },
        );
      }
      yield { items: page.Items, startIndex, totalRecordCount: page.TotalRecordCount };
      startIndex += page.Items.length;
      if (page.Items.length < pageSize || startIndex >= page.TotalRecordCount) return;
    }
  }

  /** One item with its details; 'not_found' for an unknown id. */
  abstract getItem(id: string, options?: RequestOptions & { userId?: string }): Promise<BaseItemDto>;

  /** Items by id, in chunks; unknown ids are simply absent from the answer. */
  async getItemsByIds(ids: readonly string[], options: GetItemsByIdsOptions = {}): Promise<BaseItemDto[]> {
    const unique = [...new Set(ids.map((id) => canonicalMediaServerId(id, 'item id')))];
    const chunkSize = positiveInt(options.chunkSize ?? ITEM_CHUNK, 'chunkSize');
    const out: BaseItemDto[] = [];
    for (let i = 0; i < unique.length; i += chunkSize) {
      const chunk = unique.slice(i, i + chunkSize);
      const page = await this.getJson('/Items', itemQueryResultSchema, {
        query: itemQueryParams({ ids: chunk, fields: options.fields ?? DETAIL_ITEM_FIELDS, userId: options.userId }),
        signal: options.signal,
      });
      out.push(...page.Items);
    }
    return out;
  }

  async getSeasons(seriesId: string, options: RequestOptions & { fields?: readonly string[] } = {}): Promise<BaseItemDto[]> {
    const id = canonicalMediaServerId(seriesId, 'series id');
    const page = await this.getJson(`/Shows/${id}/Seasons`, itemQueryResultSchema, {
      query: { fields: options.fields ?? DETAIL_ITEM_FIELDS, ...(await this.showsUserQuery(options)) },
      signal: options.signal,
      notFound: `series ${id} not found`,
    });
    return page.Items;
  }

  /** Episodes of a series, or of one season of it. */
  async getEpisodes(
    seriesId: string,
    seasonId?: string,
    options: RequestOptions & { fields?: readonly string[] } = {},
  ): Promise<BaseItemDto[]> {
    const id = canonicalMediaServerId(seriesId, 'series id');
    const page = await this.getJson(`/Shows/${id}/Episodes`, itemQueryResultSchema, {
      query: {
        seasonId: seasonId === undefined ? undefined : canonicalMediaServerId(seasonId, 'season id'),
        fields: options.fields ?? DETAIL_ITEM_FIELDS,
      },
      signal: options.signal,
      notFound: seasonId === undefined ? `series ${id} not found` : `series ${id} or season ${seasonId} not found`,
    });
    return page.Items;
  }

  /** Extra query for /Shows routes (Emby requires a UserId on Seasons). */
  protected async showsUserQuery(_options: RequestOptions): Promise<QueryParams> {
    return {};
  }

  // ---------------------------------------------------------------- sessions

  abstract getSessions(options?: GetSessionsOptions): Promise<SessionInfo[]>;

  protected fetchSessions(query: QueryParams, options: RequestOptions): Promise<SessionInfo[]> {
    return this.getJson('/Sessions', sessionListSchema, { query, signal: options.signal });
  }

  /** Stops what a session plays (POST /Sessions/{id}/Playing/Stop); 'not_found' when the session is gone. Not retried. */
  async stopPlayback(sessionId: string, options: RequestOptions = {}): Promise<void> {
    const id = canonicalMediaServerId(sessionId, 'session id');
    await this.postCommand(`/Sessions/${id}/Playing/Stop`, {
      body: this.playstateBody('Stop'),
      signal: options.signal,
      notFound: `session ${id} not found`,
    });
  }

  /** Shows a message on a session's client (POST /Sessions/{id}/Message); 'not_found' when the session is gone. */
  async sendMessage(sessionId: string, message: SessionMessage, options: RequestOptions = {}): Promise<void> {
    const id = canonicalMediaServerId(sessionId, 'session id');
    await this.postCommand(`/Sessions/${id}/Message`, {
      ...this.messageRequest(message),
      signal: options.signal,
      notFound: `session ${id} not found`,
    });
  }

  /** Jellyfin's Playing/{command} takes no body; Emby's requires a PlaystateRequest. */
  protected playstateBody(_command: 'Stop'): unknown {
    return undefined;
  }

  /** Jellyfin takes a JSON MessageCommand; Emby takes query parameters (EmbyClient overrides). */
  protected messageRequest(message: SessionMessage): { query?: QueryParams; body?: unknown } {
    return { body: { Header: message.header, Text: message.text, ...(message.timeoutMs ? { TimeoutMs: message.timeoutMs } : {}) } };
  }

  /** A POST answered with no content (204); commands are not idempotent, so never retried. */
  private postCommand(
    path: string,
    request: { query?: QueryParams; body?: unknown; signal?: AbortSignal; notFound: string },
  ): Promise<void> {
    return this.execute({ method: 'POST', path, ...request }, async (res) => {
      await res.body?.cancel();
    });
  }

  // ---------------------------------------------------------------- images

  /**
   * Streams an item or user image for the image proxy. Ids and parameters are validated before anything is
   * sent; 404 → 'not_found'; a non-image answer → 'invalid_response'.
   */
  async fetchImage(request: ImageRequest, options: ImageFetchOptions = {}): Promise<MediaServerImage> {
    const sizing = imageSizingParams(request);
    const { path, query } = request.kind === 'item' ? { path: validatedItemImagePath(request), query: {} } : this.userImageRoute(request);
    const headers: Record<string, string> = { Accept: 'image/*' };
    if (options.ifNoneMatch) headers['If-None-Match'] = options.ifNoneMatch;
    if (options.ifModifiedSince) headers['If-Modified-Since'] = options.ifModifiedSince;
    return this.execute(
      {
        method: 'GET',
        path,
        query: { ...query, ...sizing },
        headers,
        signal: options.signal,
        passStatus: [304],
        notFound: request.kind === 'item' ? 'image not found' : 'user image not found',
      },
      async (res, label) => {
        const pick = (name: string): string | undefined => res.headers.get(name) ?? undefined;
        const length = pick('content-length');
        const common = {
          etag: pick('etag'),
          lastModified: pick('last-modified'),
          cacheControl: pick('cache-control'),
        };
        if (res.status === 304) {
          await res.body?.cancel();
          return { status: 304, contentType: undefined, contentLength: undefined, body: null, ...common };
        }
        const contentType = pick('content-type');
        if (!contentType?.toLowerCase().startsWith('image/')) {
          await res.body?.cancel();
          throw this.invalidResponse(label, `expected an image, got ${contentType ?? 'no content type'}`);
        }
        return {
          status: 200,
          contentType,
          contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
          body: res.body,
          ...common,
        };
      },
    );
  }

  /** User image route: /UserImage?userId= on Jellyfin, /Users/{id}/Images/Primary on Emby. */
  protected abstract userImageRoute(request: UserImageRequest): { path: string; query: QueryParams };

  // ---------------------------------------------------------------- Playback Reporting plugin

  /**
   * Runs an SQL query through the Playback Reporting plugin. Not retried (the plugin executes it with write
   * access). 404 → 'not_found' (plugin not installed); an SQL error → 'query_failed'.
   */
  async submitPlaybackReportingQuery(sql: string, options: PlaybackReportingQueryOptions = {}): Promise<PlaybackReportingResult> {
    const path = '/user_usage_stats/submit_custom_query';
    const answer = await this.requestJson(
      {
        method: 'POST',
        path,
        body: { CustomQueryString: sql, ReplaceUserId: options.replaceUserId ?? false },
        signal: options.signal,
        notFound: 'the Playback Reporting plugin is not installed',
      },
      customQueryResponseSchema,
    );
    const message = answer.message ?? '';
    if (message && !/^Query executed/i.test(message)) {
      throw new MediaServerError('query_failed', `POST ${this.pathOf(path)}: Playback Reporting query failed: ${plainText(message)}`, {
        method: 'POST',
        path: this.pathOf(path),
      });
    }
    return { columns: answer.colums ?? [], rows: answer.results ?? [], message: message ? plainText(message) : '' };
  }

  // ---------------------------------------------------------------- HTTP core

  /** Canonical camelCase parameter name → the server's spelling. */
  protected paramName(name: string): string {
    return name;
  }

  /** Headers beyond the standard Authorization header (Emby adds X-Emby-Token). */
  protected extraAuthHeaders(_apiKey: string): Record<string, string> {
    return {};
  }

  protected getJson<S extends z.ZodType>(
    path: string,
    schema: S,
    options: { query?: QueryParams; signal?: AbortSignal; notFound?: string } = {},
  ): Promise<z.output<S>> {
    return this.requestJson({ method: 'GET', path, query: options.query, signal: options.signal, notFound: options.notFound }, schema);
  }

  protected pathOf(path: string): string {
    return new URL(this.baseUrl + path).pathname;
  }

  protected mapLibraries(folders: VirtualFolderInfo[], label: RequestLabel): MediaLibrary[] {
    return folders.map((f, i) => {
      const id = f.ItemId ?? f.Id;
      if (!id) throw this.invalidResponse(label, `[${i}].ItemId: missing library id`);
      return {
        id,
        name: f.Name ?? '',
        collectionType: f.CollectionType || undefined,
        locations: f.Locations ?? [],
        refreshStatus: f.RefreshStatus,
      };
    });
  }

  protected invalidResponse(label: RequestLabel, detail: string): MediaServerError {
    return new MediaServerError('invalid_response', `${label.method} ${label.path}: ${detail}`, { method: label.method, path: label.path });
  }

  private requestJson<S extends z.ZodType>(request: HttpRequest, schema: S): Promise<z.output<S>> {
    return this.execute({ ...request, headers: { Accept: 'application/json', ...request.headers } }, async (res, label) => {
      const text = await res.text();
      const type = (res.headers.get('content-type') ?? '').toLowerCase();
      if (type.includes('text/html') || /^\s*<(!doctype|html)/i.test(text)) {
        throw this.invalidResponse(label, 'the answer is an HTML page, not JSON (is this the address of a Jellyfin or Emby server?)');
      }
      if (!text.trim()) throw this.invalidResponse(label, `empty answer (HTTP ${res.status}), expected JSON`);
      let json: unknown;
      try {
        json = parseWireJson(text);
      } catch {
        throw this.invalidResponse(label, `the answer is not JSON (${type || 'no content type'})`);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw this.invalidResponse(label, `unexpected answer: ${describeIssues(parsed.error)}`);
      return parsed.data as z.output<S>;
    });
  }

  /**
   * One logical request: waits for a slot, sends, and hands a successful response to `read` (still inside the
   * slot and the timeout). Failures of idempotent requests that may be transient are retried with backoff.
   */
  private async execute<T>(request: HttpRequest, read: (res: Response, label: RequestLabel) => Promise<T>): Promise<T> {
    const url = new URL(this.baseUrl + request.path);
    appendQuery(url, request.query, (n) => this.paramName(n));
    const label: RequestLabel = { method: request.method, path: url.pathname };
    const idempotent = request.method === 'GET';
    const maxAttempts = idempotent ? this.retry.retries + 1 : 1;
    const headers: Record<string, string> = {
      'User-Agent': `Reelstat/${VERSION}`,
      Authorization: request.withoutApiKey ? this.authorizationWithoutKey : this.authorization,
      ...(request.withoutApiKey ? {} : this.extraAuthHeaders(this.apiKey)),
      ...request.headers,
    };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['Content-Type'] = 'application/json';
    }

    for (let attempt = 1; ; attempt++) {
      let failure: Failure;
      let retryAfterMs: number | undefined;
      const release = await this.semaphore.acquire(request.signal);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new AttemptTimeout(this.timeoutMs)), this.timeoutMs);
      const signal = request.signal ? AbortSignal.any([controller.signal, request.signal]) : controller.signal;
      const started = performance.now();
      try {
        const res = await this.fetchFollowingSameOrigin(url, { method: request.method, headers, body, signal }, label);
        if (res.ok || request.passStatus?.includes(res.status)) {
          const value = await read(res, label);
          this.logger?.debug(
            { method: label.method, path: label.path, status: res.status, ms: Math.round(performance.now() - started) },
            'media server request',
          );
          return value;
        }
        const text = await res.text();
        failure = statusFailure(res.status, res.statusText, text, res.headers.get('content-type'));
        if (failure.kind === 'not_found' && request.notFound) failure.detail = `${request.notFound} (HTTP 404)`;
        retryAfterMs = parseRetryAfterMs(res.headers.get('retry-after'), Date.now());
      } catch (error) {
        if (error instanceof MediaServerError) throw error;
        if (request.signal?.aborted) throw request.signal.reason;
        const reason: unknown = controller.signal.reason;
        failure = networkFailure(error, url.host, controller.signal.aborted && reason instanceof AttemptTimeout ? reason : undefined);
      } finally {
        clearTimeout(timer);
        release();
      }

      const waitMs = retryAfterMs ?? backoffDelayMs(attempt, this.retry);
      const tooLong = retryAfterMs !== undefined && retryAfterMs > this.retry.maxRetryAfterMs;
      if (!failure.retryable || attempt >= maxAttempts || tooLong) {
        let suffix = attempt > 1 ? ` (gave up after ${attempt} attempts)` : '';
        if (tooLong && failure.retryable && attempt < maxAttempts)
          suffix = ` (Retry-After ${Math.round(waitMs / 1000)} s is longer than the ${this.retry.maxRetryAfterMs} ms allowed)`;
        throw new MediaServerError(failure.kind, `${label.method} ${label.path}: ${failure.detail}${suffix}`, {
          status: failure.status,
          method: label.method,
          path: label.path,
          attempts: attempt,
          cause: failure.cause,
        });
      }
      this.logger?.warn(
        { method: label.method, path: label.path, kind: failure.kind, status: failure.status, attempt, retryInMs: waitMs },
        `media server request failed, retrying: ${failure.detail}`,
      );
      await sleep(waitMs, request.signal);
    }
  }

  /**
   * Redirects are followed only within the same origin (e.g. /jellyfin → /jellyfin/): fetch would carry
   * X-Emby-Token to any other host, and silently drop Authorization on http → https, ending in a puzzling 401.
   * A redirect elsewhere fails with the target, so the address can be corrected.
   */
  private async fetchFollowingSameOrigin(url: URL, init: RequestInit, label: RequestLabel): Promise<Response> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const res = await fetch(target, { ...init, redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || res.status === 304 || !location) return res;
      await res.body?.cancel();
      const next = new URL(location, target);
      const keepsBody = res.status === 307 || res.status === 308;
      let problem: string | undefined;
      if (next.origin !== target.origin) problem = `the server redirects to ${next.origin}${next.pathname}; configure that address instead`;
      else if (hop >= 5) problem = 'too many redirects';
      else if (init.method !== 'GET' && !keepsBody) problem = `${init.method} redirected with HTTP ${res.status}`;
      if (problem) {
        throw new MediaServerError('http', `${label.method} ${label.path}: ${problem} (HTTP ${res.status})`, {
          status: res.status,
          method: label.method,
          path: label.path,
        });
      }
      target = next;
    }
  }
}

function authorizationHeader(fields: Record<string, string>): string {
  // The server URL-decodes each value, so encoding keeps quotes and commas in names from breaking the header.
  return `MediaBrowser ${Object.entries(fields)
    .map(([k, v]) => `${k}="${encodeURIComponent(v)}"`)
    .join(', ')}`;
}

/** The plugin writes HTML into `message` ("Error Running Query</br>…<pre>stack</pre>"). */
function plainText(message: string): string {
  return message
    .replace(/<pre>[\s\S]*?<\/pre>/gi, ' ')
    .replace(/<\/?br\s*\/?>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function positive(v: number, name: string): number {
  if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be a positive number, got ${v}`);
  return v;
}
function nonNegative(v: number, name: string): number {
  if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${name} must be zero or more, got ${v}`);
  return v;
}
function positiveInt(v: number, name: string): number {
  if (!(Number.isInteger(v) && v > 0)) throw new RangeError(`${name} must be a positive integer, got ${v}`);
  return v;
}
function nonNegativeInt(v: number, name: string): number {
  if (!(Number.isInteger(v) && v >= 0)) throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
  return v;
}
