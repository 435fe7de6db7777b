/**
 * How the process flushes its last spans before exiting. Set by start-tracing.ts when the SDK runs; otherwise
 * nothing is registered and a shutdown does not wait for anything.
 */
let flush: (() => Promise<void>) | undefined;

export function onTracingShutdown(flushSpans: () => Promise<void>): void {
  flush = flushSpans;
}

export async function shutdownTracing(): Promise<void> {
  await flush?.().catch(() => undefined);
}
