import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/**
 * Spans for work no request started (task runs, activity polls, webhook deliveries), so their database, Redis
 * and outgoing HTTP spans have a parent. Through the OpenTelemetry API only: without the SDK (no
 * OTEL_EXPORTER_OTLP_ENDPOINT) the tracer is a no-op and this costs a function call.
 */
const tracer = trace.getTracer('reelstat');

export function inBackgroundSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  // A root span: the work is its own trace, whatever context happened to be active when it was scheduled.
  return tracer.startActiveSpan(name, { root: true, kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
