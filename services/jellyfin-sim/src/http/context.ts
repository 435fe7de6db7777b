import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimUser } from '../library/types.js';
import type { AuthHeader } from './auth.js';
import { HttpError, type Params } from './params.js';
import { toJson } from '../wire.js';

export interface Caller {
  kind: 'apikey' | 'user';
  user?: SimUser;
  token: string;
  header: AuthHeader;
  isAdmin: boolean;
}

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  params: Params;
  groups: string[];
  caller?: Caller;
  header: AuthHeader;
  body(): Promise<Record<string, unknown>>;
}

/** Responses for requests that sent `Accept: application/json; profile="CamelCase"`. */
export const camelCaseResponses = new WeakSet<ServerResponse>();

/** Dictionary-valued properties: System.Text.Json's naming policy does not touch dictionary keys. */
const DICTIONARIES = new Set(['ImageTags', 'ImageBlurHashes', 'ProviderIds', 'RequiredHttpHeaders']);

export function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = k.length ? k[0]!.toLowerCase() + k.slice(1) : k;
    out[key] = DICTIONARIES.has(k) ? v : camelize(v);
  }
  return out;
}

export function sendJson(res: ServerResponse, status: number, value: unknown, head = false): void {
  const body = Buffer.from(toJson(camelCaseResponses.has(res) ? camelize(value) : value), 'utf8');
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(head ? undefined : body);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'Content-Length': 0 });
  res.end();
}

export function sendText(res: ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': body.length });
  res.end(body);
}

export function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) {
        reject(new HttpError(413));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8').trim();
      if (!raw) return resolve({});
      try {
        const v: unknown = JSON.parse(raw);
        resolve(v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
      } catch {
        reject(new HttpError(400, 'Error processing request.'));
      }
    });
    req.on('error', reject);
  });
}
