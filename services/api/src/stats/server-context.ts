import { StatisticsContext, type Runtime, type ServerContext } from '@reelstat/core';

const contexts = new WeakMap<Runtime, StatisticsContext>();

/** The statistics context of a runtime (default server, default time zone), built once per process. */
export function statisticsContext(runtime: Runtime): StatisticsContext {
  let context = contexts.get(runtime);
  if (!context) {
    context = new StatisticsContext(runtime.db, runtime.config.timeZone);
    contexts.set(runtime, context);
  }
  return context;
}

/**
 * Runs a read against the default media server; with no server linked yet the answer is `empty`, so the
 * dashboard shows its empty states instead of errors.
 */
export async function withServer<T>(runtime: Runtime, empty: T, read: (server: ServerContext) => Promise<T>): Promise<T> {
  const server = await statisticsContext(runtime).server();
  return server ? read(server) : empty;
}
