/** node:http front: prefix stripping, auth, faults, routing, error mapping. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SimulatorState } from '../sim.js';
import { extractAuth } from './auth.js';
import { camelCaseResponses, readBody, sendEmpty, sendText, type Caller, type RequestContext } from './context.js';
import { HttpError, Params } from './params.js';
import { buildRoutes, type Route } from './routes.js';

export type ControlHandler = (ctx: RequestContext) => Promise<void>;

export const CONTROL_PREFIX = '/__control';

export class SimHttpServer {
  private server: Server;
  private readonly routes: Route[];
  private readonly sockets = new Set<Socket>();
  port = 0;
  private listening = false;

  constructor(
    private readonly st: SimulatorState,
    private readonly control: ControlHandler,
  ) {
    this.routes = buildRoutes(st);
    this.server = this.makeServer();
  }

  private makeServer(): Server {
    const server = createServer((req, res) => {
      void this.handle(req, res);
    });
    server.keepAliveTimeout = 5000;
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    return server;
  }

  async listen(port: number, host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.listening = true;
  }

  /** Closes the listening socket and every open connection: clients get "connection refused". */
  async close(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.server.closeAllConnections?.();
    await closed;
    this.server = this.makeServer();
  }

  isListening(): boolean {
    return this.listening;
  }

  private authenticate(
    req: IncomingMessage,
    params: Params,
  ): { caller?: Caller; header: ReturnType<typeof extractAuth>; invalid: boolean } {
    const header = extractAuth(req, params, this.st.opts.legacyAuth);
    const token = header.token;
    if (!token) return { header, invalid: false };
    if (token === this.st.opts.apiKey) return { header, caller: { kind: 'apikey', token, header, isAdmin: true }, invalid: false };
    const uid = this.st.tokens.get(token);
    const user = uid ? this.st.store.users.get(uid) : undefined;
    if (!user || user.isDisabled) return { header, invalid: true };
    return { header, caller: { kind: 'user', user, token, header, isAdmin: user.isAdministrator }, invalid: false };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const st = this.st;
    try {
      const url = new URL(req.url ?? '/', 'http://sim.invalid');
      let path = decodeURIComponent(url.pathname).replace(/\/+$/, '') || '/';
      const params = new Params(url.searchParams);
      const method = (req.method ?? 'GET').toUpperCase();
      const isControl = path.toLowerCase().startsWith(CONTROL_PREFIX);
      // Jellyfin 10.x strips a leading /emby or /mediabrowser; Emby serves everything under /emby.
      if (!isControl) path = path.replace(/^\/(emby|mediabrowser)(?=\/|$)/i, '') || '/';
      const auth = this.authenticate(req, params);
      let bodyPromise: Promise<Record<string, unknown>> | undefined;
      const ctx: RequestContext = {
        req,
        res,
        method,
        path,
        params,
        groups: [],
        caller: auth.caller,
        header: auth.header,
        body: () => (bodyPromise ??= readBody(req)),
      };
      // Jellyfin's CamelCaseJsonProfileFormatter (the Emby flavor ignores it).
      if (st.opts.flavor === 'jellyfin' && /profile="?camelcase/i.test(req.headers.accept ?? '')) camelCaseResponses.add(res);
      if (isControl) {
        if (!auth.caller || auth.caller.kind !== 'apikey') return sendEmpty(res, 401);
        await this.control(ctx);
        return;
      }
      const f = st.faults.settings;
      if (f.down === '503') {
        res.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', 'Retry-After': '5', Message: 'Server is restarting' });
        res.end('<html><body>Server is starting or restarting.</body></html>');
        return;
      }
      if (f.latencyMs > 0) await sleep(f.latencyMs);
      let matched: Route | undefined;
      let methodMismatch = false;
      for (const r of this.routes) {
        const m = r.pattern.exec(path);
        if (!m) continue;
        if (!r.methods.includes(method) && !(method === 'HEAD' && r.methods.includes('GET'))) {
          methodMismatch = true;
          continue;
        }
        matched = r;
        ctx.groups = m.slice(1).map((g) => g ?? '');
        break;
      }
      if (!matched) return sendEmpty(res, methodMismatch ? 405 : 404);
      if (matched.auth !== 'anon') {
        if (!auth.caller || auth.invalid) return sendEmpty(res, 401);
        if (matched.auth === 'admin' && !auth.caller.isAdmin) return sendEmpty(res, 403);
      }
      if (st.faults.shouldFail()) return sendText(res, 500, 'Error processing request.');
      if (matched.paged && f.slowPagesMs > 0) await sleep(f.slowPagesMs);
      await matched.handle(ctx);
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof HttpError) {
        if (e.body) sendText(res, e.status, e.body, e.contentType);
        else sendEmpty(res, e.status);
        return;
      }
      sendText(res, 500, 'Error processing request.');
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
