import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../../test-support/test-kit.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): unknown;
}

/** What the receiver answers: a status (with headers/body), or 'hang' (never answers). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A real HTTP receiver on loopback for webhook tests: records every request and answers as the test says
 * (200 by default; 500, 429 with Retry-After, a redirect, or hanging).
 */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  private answer: (request: ReceivedRequest, index: number) => Answer = () => ({ status: 200, body: 'ok' });
  private readonly server: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();
  private waiters: Array<() => void> = [];
  /** Requests being answered right now, and the most ever at once. */
  open = 0;
  maxOpen = 0;
  delayMs = 0;
  /** TCP connections accepted (kept-alive connections carry several requests). */
  connections = 0;

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const request: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          json: () => JSON.parse(body),
        };
        const index = this.requests.push(request) - 1;
        this.open++;
        this.maxOpen = Math.max(this.maxOpen, this.open);
        for (const wake of this.waiters.splice(0)) wake();
        const answer = this.answer(request, index);
        res.on('close', () => this.open--);
        if (answer === 'hang') {
          this.hanging.add(res);
          return;
        }
        const send = () => {
          res.writeHead(answer.status, answer.headers ?? {});
          res.end(answer.body ?? '');
        };
        if (this.delayMs > 0) setTimeout(send, this.delayMs);
        else send();
      });
    });
    this.server.on('connection', () => this.connections++);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  answerWith(answer: (request: ReceivedRequest, index: number) => Answer): void {
    this.answer = answer;
  }

  /** Resolves once `count` requests arrived (rejects after the deadline, so a failing test ends). */
  async waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      if (Date.now() > deadline) throw new Error(`receiver got ${this.requests.length} requests, expected ${count}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** test-kit's waitFor, in the argument order the webhook tests use. */
export function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  return waitFor(what, check, { timeoutMs });
}
