#!/usr/bin/env node
/**
 * The entry point. With OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only form) set, tracing starts first: the
 * OpenTelemetry SDK has to hook node:http, pg and ioredis before anything imports them, so the process itself
 * (process-main.ts, which imports them all) is loaded only afterwards. Without the variable no SDK module is
 * even loaded.
 */
import { tracingRequested } from './tracing/tracing-requested.js';

if (tracingRequested(process.env)) {
  const { startTracing } = await import('./tracing/start-tracing.js');
  await startTracing(process.env);
}
const { runProcess } = await import('./process-main.js');
await runProcess(process.env);
