import { AppError } from '../errors/app-error.js';
import type { Runtime } from '../runtime/runtime.js';
import { TaskService } from '../tasks/task-service.js';

/**
 * On server linked → start a full sync, so its libraries show without waiting for the schedule. Every way of
 * linking calls it (setup, settings, environment, the operator). Best effort: the link is saved either way, and
 * a sync already queued or running (the setup screen starts one too) is the sync we wanted.
 */
export async function onMediaServerLinked(runtime: Runtime): Promise<void> {
  try {
    await new TaskService(runtime).start('FullSyncTask', 'Automatic');
    runtime.logger.info('full sync started after the media server was linked');
  } catch (error) {
    if (error instanceof AppError && error.status === 409) return;
    runtime.logger.warn({ err: (error as Error).message }, 'could not start a full sync after the media server was linked');
  }
}
