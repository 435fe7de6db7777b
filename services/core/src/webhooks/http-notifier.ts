import http from 'node:http';
import https from 'node:https';
import type { OutgoingMessage } from './formatters/index.js';
import { failure, type Notifier, type SendOptions, type SendResult } from './notifier.js';
import { guardedLookup, literalTargetProblem } from './target-address.js';

const MAX_REDIRECTS = 3;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A pooled connection idle this long is closed (receivers often drop theirs after 5 s). */
const IDLE_SOCKET_MS = 4_000;

/**
 * Sends the HTTP types. One attempt has a deadline for everything (connect, send, answer); the answer's body
 * is read up to a cap for the delivery log; redirects are followed only on the same host (a receiver cannot
 * bounce our signed request elsewhere); link-local targets are refused at connect time.
 *
 * Connections are kept alive between deliveries to one host (a new TCP and TLS handshake per delivery would
 * cost more than the delivery). A request that fails or times out destroys its socket, so a hung receiver
 * never leaves a bad connection in the pool; the dispatcher's per-host limit bounds the sockets per host.
 */
export class HttpNotifier implements Notifier {
  readonly kind = 'http' as const;
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  async send(message: OutgoingMessage, options: SendOptions): Promise<SendResult> {
    if (message.kind !== 'http') throw new Error('HttpNotifier sends HTTP messages only');
    let url: URL;
    try {
      url = new URL(message.url);
    } catch {
      return failure('invalid URL (not shown: it may hold a token)', false);
    }
    const deadline = Date.now() + options.timeoutMs;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return failure(`unsupported protocol ${url.protocol}`, false);
      const blocked = literalTargetProblem(url.hostname, options.allowLinkLocal);
      if (blocked) return failure(blocked, false);
      let response: RawResponse;
      try {
        response = await this.request(url, message, options, deadline - Date.now(), true).catch((error: StaleSocketError) => {
          // The receiver closed a pooled connection just as we reused it: nothing reached it, try a fresh one.
          if (!error.staleSocket) throw error;
          return this.request(url, message, options, deadline - Date.now(), false);
        });
      } catch (error) {
        const err = error as NodeJS.ErrnoException;
        if (err.code === 'EBLOCKED') return failure(err.message, false);
        return failure(err.message || String(error), true);
      }
      const { status } = response;
      if (status >= 300 && status < 400 && response.headers.location) {
        const next = new URL(response.headers.location, url);
        if (next.host !== url.host || next.protocol !== url.protocol)
          return failure(`redirect to another host (${next.host}) not followed`, false, status);
        if (hop >= MAX_REDIRECTS) return failure(`more than ${MAX_REDIRECTS} redirects`, false, status);
        url = next;
        continue;
      }
      if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null, retryable: false, retryAfterMs: null };
      const detail = `HTTP ${status}${response.body ? `: ${response.body.slice(0, 300)}` : ''}`;
      const retryable = status === 408 || status === 429 || status >= 500;
      return failure(detail, retryable, status, status === 429 || status === 503 ? parseRetryAfter(response.headers['retry-after']) : null);
    }
  }

  private request(
    url: URL,
    message: Extract<OutgoingMessage, { kind: 'http' }>,
    options: SendOptions,
    timeoutMs: number,
    pooled: boolean,
  ): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      if (timeoutMs <= 0) return reject(new Error(`timed out after ${options.timeoutMs} ms`));
      const transport = url.protocol === 'https:' ? https : http;
      const body = Buffer.from(message.body);
      const req = transport.request(url, {
        method: message.method,
        headers: { 'user-agent': 'Reelstat-Webhooks', ...message.headers, 'content-length': String(body.length) },
        // Checked when a connection is made; a pooled connection was checked when it was made.
        lookup: guardedLookup(options.allowLinkLocal) as never,
        agent: pooled ? this.agents[url.protocol as 'http:' | 'https:'] : false,
      });
      let answered = false;
      const timer = setTimeout(() => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)), timeoutMs);
      req.on('error', (error: StaleSocketError) => {
        clearTimeout(timer);
        if (req.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) error.staleSocket = true;
        reject(error);
      });
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= options.maxResponseBytes) return;
          const room = options.maxResponseBytes - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          // Enough read: we do not need the rest of a huge answer.
          if (size >= options.maxResponseBytes) res.destroy();
        });
        const finish = () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', () => finish());
      });
      req.end(body);
    });
  }
}

type StaleSocketError = NodeJS.ErrnoException & { staleSocket?: boolean };

/** Retry-After: seconds, or an HTTP date. Null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
