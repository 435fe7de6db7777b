import type { Logger } from '@reelstat/core';

/**
 * Node ends the process on an unhandled promise rejection. A background failure we did not foresee (a
 * database that went away under a fire-and-forget promise) must not take the dashboard and the activity
 * monitor down with it: the rejection is logged with its stack and counted, and the process carries on.
 * Uncaught synchronous exceptions stay fatal: after one, the process state is unknown.
 */
export function keepRunningOnUnhandledRejections(
  target: Pick<NodeJS.Process, 'on' | 'off'>,
  logger: Logger,
  count: () => void,
): () => void {
  const onRejection = (reason: unknown) => {
    count();
    logger.error({ err: reason }, 'unhandled promise rejection (logged and counted; the process keeps running)');
  };
  target.on('unhandledRejection', onRejection);
  return () => target.off('unhandledRejection', onRejection);
}
