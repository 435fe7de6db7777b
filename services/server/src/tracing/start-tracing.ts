import { register } from 'node:module';
import type { IncomingMessage } from 'node:http';
import { onTracingShutdown } from './tracing-shutdown.js';

/** Probes and scrapes are polled every few seconds: tracing them would bury the requests that matter. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Starts the OpenTelemetry SDK: spans for incoming and outgoing HTTP (node:http: the API, webhooks), fetch
 * (undici: the media servers), PostgreSQL (pg) and Redis (ioredis), exported over OTLP as the standard
 * OTEL_* variables say (endpoint, protocol, headers, service name, sampler). The background work (task runs,
 * activity polls, webhook deliveries) opens its own spans through the API (@reelstat/core inBackgroundSpan).
 */
export async function startTracing(env: NodeJS.ProcessEnv): Promise<void> {
  // ES module imports are hooked by import-in-the-middle's loader (CommonJS requires by require-in-the-middle,
  // which the instrumentations install themselves). Registered before any instrumented module is imported.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, { IORedisInstrumentation }, { UndiciInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/instrumentation-ioredis'),
      import('@opentelemetry/instrumentation-undici'),
    ]);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'reelstat',
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
      }),
      new UndiciInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  onTracingShutdown(() => sdk.shutdown());
}
