/**
 * The leader fires scheduled tasks on their intervals, fails runs whose process died, and prunes old runs.
 * Only the scheduler leader runs this, so a schedule fires once however many replicas there are.
 */
import { isAppError } from './is-app-error.js';
import type { Runtime } from '../runtime/runtime.js';
import { TaskService } from './task-service.js';
import { scheduledIntervals } from '../sync/declared-sync-intervals.js';
import { DEFAULT_TASK_INTERVAL, type TaskDefinition, type TaskName } from './task-types.js';

const TICK_MS = 5_000;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Which scheduled tasks are due: a task runs `interval` minutes after it last started (whatever started it),
 * or after the schedule itself started when it never ran.
 */
export function dueTasks(
  definitions: readonly TaskDefinition[],
  intervals: Record<string, number>,
  lastStarts: ReadonlyMap<string, Date>,
  scheduleStartedAt: number,
  now: number,
): TaskName[] {
  return definitions
    .filter((d) => d.scheduled)
    .filter((d) => {
      const interval = (intervals[d.name] ?? d.defaultInterval ?? DEFAULT_TASK_INTERVAL) * 60_000;
      const since = lastStarts.get(d.name)?.getTime() ?? scheduleStartedAt;
      return now - since >= interval;
    })
    .map((d) => d.name);
}

export function startTaskSchedule(runtime: Runtime, options: { tickMs?: number } = {}): () => Promise<void> {
  const service = new TaskService(runtime);
  const startedAt = Date.now();
  let lastPrune = 0;
  let stopped = false;
  let current: Promise<void> = Promise.resolve();

  const tick = async () => {
    if ((await service.runs.failStaleRuns()).length) await service.publishList();
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await service.runs.prune(await runtime.services.settings.get('TASK_LOG_RETENTION_DAYS'));
    }
    const due = dueTasks(
      service.registry.all,
      // A MediaStatsServer may ask for more frequent syncs than the installation's intervals.
      scheduledIntervals(await runtime.services.settings.get('TASK_INTERVALS'), await runtime.services.mediaServers.list()),
      await service.runs.lastStarts(),
      startedAt,
      Date.now(),
    );
    for (const name of due) {
      try {
        await service.start(name, 'Automatic');
        runtime.logger.info({ task: name }, 'scheduled task started');
      } catch (error) {
        // Already running, excluded by a running task, or no media server yet: try again next tick.
        if (!isAppError(error)) throw error;
      }
    }
  };
  const timer = setInterval(() => {
    current = current.then(() =>
      stopped ? undefined : tick().catch((error: unknown) => runtime.logger.warn({ err: error }, 'task schedule tick failed')),
    );
  }, options.tickMs ?? TICK_MS);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await current;
  };
}
