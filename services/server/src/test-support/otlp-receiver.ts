import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as the OTLP/HTTP JSON encoding carries it (ids in hex). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  scope: string;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface ExportRequest {
  resourceSpans?: Array<{
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<Omit<ReceivedSpan, 'attributes' | 'scope'> & { attributes?: Array<{ key: string; value: AnyValue }> }>;
    }>;
  }>;
}

/**
 * A local OTLP/HTTP trace receiver (POST /v1/traces, JSON encoding): what an OpenTelemetry collector would get.
 * Any other content type is refused with 415, so a test notices an exporter speaking protobuf.
 */
export async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !(req.headers['content-type'] ?? '').startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const request = JSON.parse(body.toString('utf8')) as ExportRequest;
      for (const resource of request.resourceSpans ?? []) {
        for (const scoped of resource.scopeSpans ?? []) {
          for (const span of scoped.spans ?? []) {
            const attributes: ReceivedSpan['attributes'] = {};
            for (const { key, value } of span.attributes ?? []) {
              attributes[key] =
                value.stringValue ??
                (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
                value.doubleValue ??
                value.boolValue ??
                '';
            }
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes,
              scope: scoped.scope?.name ?? '',
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The spans below `root` in its trace (children, their children, …), found through the parent links. */
export function descendantsOf(spans: readonly ReceivedSpan[], root: ReceivedSpan): ReceivedSpan[] {
  const inTrace = spans.filter((span) => span.traceId === root.traceId);
  const found: ReceivedSpan[] = [];
  const parents = new Set([root.spanId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const span of inTrace) {
      if (span.parentSpanId && parents.has(span.parentSpanId) && !parents.has(span.spanId)) {
        parents.add(span.spanId);
        found.push(span);
        grew = true;
      }
    }
  }
  return found;
}
