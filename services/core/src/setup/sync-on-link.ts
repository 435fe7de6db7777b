import { AppError } from '../errors/app-error.js';
import type { Runtime } from '../runtime/runtime.js';
import { TaskService } from '../tasks/task-service.js';

/** While another sync runs, the start is tried again this often, this many times (30 minutes). */
const BUSY_RETRY_MS = 5000;
const BUSY_RETRIES = 360;

/**
 * On server linked → start a full sync, so its libraries show without waiting for the schedule. Every way of
 * linking calls it (setup, settings, environment, the operator, the server list). Best effort: the link is saved
 * either way. A sync already running may have read the server list before this server was added, so while one
 * runs the start is tried again in the background until it goes through.
 */
export async function onMediaServerLinked(runtime: Runtime, retriesLeft = BUSY_RETRIES): Promise<void> {
  try {
    await new TaskService(runtime).start('FullSyncTask', 'Automatic');
    runtime.logger.info('full sync started after the media server was linked');
  } catch (error) {
    if (error instanceof AppError && error.status === 409) {
      const busy = /already running|cannot start while/.test(error.message);
      if (busy && retriesLeft > 0) {
        setTimeout(() => void onMediaServerLinked(runtime, retriesLeft - 1), BUSY_RETRY_MS).unref();
      }
      return;
    }
    runtime.logger.warn({ err: (error as Error).message }, 'could not start a full sync after the media server was linked');
  }
}
