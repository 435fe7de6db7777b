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

/**
 * Sends the HTTP types. One attempt has a deadline for everything (connect, send, answer); the answer's body
 * is read up to a cap for the delivery log; redirects are followed only on the same host (a receiver cannot
 * bounce our signed request elsewhere); link-local targets are refused at connect time.
 */
export class HttpNotifier implements Notifier {
  readonly kind = 'http' as const;

  async send(message: OutgoingMessage, options: SendOptions): Promise<SendResult> {
    if (message.kind !== 'http') throw new Error('HttpNotifier sends HTTP messages only');
    let url: URL;
    try {
      url = new URL(message.url);
    } catch {
      return failure(`invalid URL ${message.url}`, false);
    }
    const deadline = Date.now() + options.timeoutMs;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return failure(`unsupported protocol ${url.protocol}`, false);
      const blocked = literalTargetProblem(url.hostname, options.allowLinkLocal);
      if (blocked) return failure(blocked, false);
      let response: RawResponse;
      try {
        response = await this.request(url, message, options, deadline - Date.now());
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
  ): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      if (timeoutMs <= 0) return reject(new Error(`timed out after ${options.timeoutMs} ms`));
      const transport = url.protocol === 'https:' ? https : http;
      const body = Buffer.from(message.body);
      const req = transport.request(url, {
        method: message.method,
        headers: { 'user-agent': 'Reelstat-Webhooks', ...message.headers, 'content-length': String(body.length) },
        lookup: guardedLookup(options.allowLinkLocal) as never,
        // No connection reuse across attempts: a hung receiver must not hold a pooled socket.
        agent: false,
      });
      const timer = setTimeout(() => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)), timeoutMs);
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      req.on('response', (res) => {
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

/** Retry-After: seconds, or an HTTP date. Null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
