import { createServer, request, Agent, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/** One replica behind the front, in rotation only while its last readiness probe answered 200. */
interface Backend {
  port: number;
  ready: boolean;
}

/**
 * A tiny stand-in for a Kubernetes Service in front of the api replicas: requests and WebSocket upgrades go
 * round-robin to the replicas whose /readyz last answered 200, probed every `probeIntervalMs` (as the kubelet's
 * readiness probe feeds the Service's endpoints). It does not retry: a request that fails at a replica fails for
 * the client too (answered 502), which is what a rolling restart must not cause.
 */
export class RoundRobinFront {
  private readonly backends = new Map<number, Backend>();
  // A fresh connection per request: a kept-alive one could be closed by the replica's idle timeout just as a
  // request is written to it, a failure that says nothing about draining.
  private readonly agent = new Agent({ keepAlive: false });
  private readonly server: Server;
  private readonly upgraded = new Set<Duplex>();
  private next = 0;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  port = 0;

  constructor(private readonly probeIntervalMs = 200) {
    this.server = createServer((req, res) => {
      const backend = this.pick();
      if (!backend) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('no ready replica');
        return;
      }
      const upstream = request(
        {
          host: '127.0.0.1',
          port: backend.port,
          method: req.method,
          path: req.url,
          headers: withoutHopByHop(req.headers),
          agent: this.agent,
        },
        (answer: IncomingMessage) => {
          res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
          answer.pipe(res);
        },
      );
      upstream.on('error', (error) => {
        if (res.headersSent) res.destroy(error);
        else res.writeHead(502, { 'content-type': 'text/plain' }).end(`replica ${backend.port} failed: ${error.message}`);
      });
      req.pipe(upstream);
    });
    this.server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => this.upgrade(req, client, head));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.probeTimer = setInterval(() => void this.probeAll(), this.probeIntervalMs);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Adds a replica; it takes requests once a probe finds it ready. */
  add(port: number): void {
    this.backends.set(port, { port, ready: false });
  }

  remove(port: number): void {
    this.backends.delete(port);
  }

  /** The replicas in rotation now. */
  readyPorts(): number[] {
    return [...this.backends.values()].filter((backend) => backend.ready).map((backend) => backend.port);
  }

  async stop(): Promise<void> {
    clearInterval(this.probeTimer);
    for (const socket of this.upgraded) socket.destroy();
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pick(): Backend | undefined {
    const ready = [...this.backends.values()].filter((backend) => backend.ready);
    if (ready.length === 0) return undefined;
    this.next = (this.next + 1) % ready.length;
    return ready[this.next];
  }

  private async probeAll(): Promise<void> {
    // One round at a time: a slow replica must not pile up probes.
    if (this.probing) return;
    this.probing = true;
    try {
      await Promise.all(
        [...this.backends.values()].map(async (backend) => {
          backend.ready = await fetch(`http://127.0.0.1:${backend.port}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
            (answer) => answer.status === 200,
            () => false,
          );
        }),
      );
    } finally {
      this.probing = false;
    }
  }

  /** A WebSocket upgrade is a raw TCP tunnel to one replica, kept until either side closes it. */
  private upgrade(req: IncomingMessage, client: Duplex, head: Buffer): void {
    const backend = this.pick();
    if (!backend) {
      client.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    const upstream: Socket = connect(backend.port, '127.0.0.1', () => {
      const headerLines = Object.entries(req.headers).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value ?? '']).map((one) => `${name}: ${one}`),
      );
      upstream.write([`${req.method} ${req.url} HTTP/${req.httpVersion}`, ...headerLines, '', ''].join('\r\n'));
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.upgraded.add(client);
    const close = () => {
      this.upgraded.delete(client);
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', close);
    upstream.on('close', close);
    client.on('error', close);
    client.on('close', close);
  }
}

/** Headers about the client's own connection stay on that connection. */
function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}
