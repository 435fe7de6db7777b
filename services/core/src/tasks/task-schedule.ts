/**
 * The leader fires scheduled tasks on their intervals, fails runs whose process died, and prunes old runs.
 * Only the scheduler leader runs this, so a schedule fires once however many replicas there are.
 */
import { isAppError } from './is-app-error.js';
import type { Runtime } from '../runtime/runtime.js';
import { TaskService } from './task-service.js';
import { dueServers, serverSyncStarts, SERVER_SYNC_TASKS } from '../sync/declared-sync-intervals.js';
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
    const intervals = await runtime.services.settings.get('TASK_INTERVALS');
    const lastStarts = await service.runs.lastStarts();
    const perServer = new Set<string>(SERVER_SYNC_TASKS);
    const due: Array<{ name: TaskName; serverIds?: string[] }> = dueTasks(
      service.registry.all.filter((definition) => !perServer.has(definition.name)),
      intervals,
      lastStarts,
      startedAt,
      Date.now(),
    ).map((name) => ({ name }));
    // The sync tasks run for the servers due, each on its own interval (a MediaStatsServer may declare one).
    const links = await runtime.services.mediaServers.list();
    for (const task of SERVER_SYNC_TASKS) {
      const definition = service.registry.get(task);
      if (!definition?.scheduled) continue;
      const serverIds = dueServers(
        task,
        intervals[task] ?? definition.defaultInterval ?? DEFAULT_TASK_INTERVAL,
        links,
        await serverSyncStarts(runtime.db, task),
        lastStarts.get(task)?.getTime() ?? startedAt,
        Date.now(),
      );
      if (serverIds.length) due.push({ name: task, serverIds });
    }
    for (const { name, serverIds } of due) {
      try {
        await service.start(name, 'Automatic', serverIds);
        runtime.logger.info({ task: name, serverIds }, 'scheduled task started');
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
