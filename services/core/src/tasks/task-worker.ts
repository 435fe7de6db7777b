/**
 * Runs queued tasks on this process: records the run, writes its console-style log, beats its heartbeat,
 * pushes Start/Update/Success/Error events and the task list, and stops it when asked (over the bus) or when
 * the process shuts down.
 */
import { randomUUID } from 'node:crypto';
import type { Job } from '../queue/job-queue.js';
import type { Runtime } from '../runtime/runtime.js';
import { publishTaskEvent, TASK_CONTROL_CHANNEL, type TaskControlMessage } from './task-events.js';
import { HEARTBEAT_MS } from './task-runs.js';
import { TaskService, type TaskJobData } from './task-service.js';
import type { LogColor, TaskContext, TaskLogger } from './task-types.js';
import { enqueueWebhookEvents } from '../webhooks/webhook-events.js';
import { inBackgroundSpan } from '../tracing/background-span.js';

/** Browsers get at most one progress update per task this often. */
const UPDATE_EVERY_MS = 1000;

class TaskStopped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskStopped';
  }
}

export async function startTaskWorkers(runtime: Runtime, service = new TaskService(runtime)): Promise<() => Promise<void>> {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const unsubscribe = await runtime.bus.subscribe<TaskControlMessage>(TASK_CONTROL_CHANNEL, (message) => {
    if (message.action === 'stop') running.get(message.name)?.controller.abort(new TaskStopped('Stopped by an administrator'));
  });
  // Runs left Running by a process that died are failed now (only those whose heartbeat stopped).
  if ((await service.runs.failStaleRuns()).length) await service.publishList().catch(() => undefined);

  const handle = async (job: Job<TaskJobData>) => {
    const controller = new AbortController();
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    running.set(job.data.name, { controller, done });
    try {
      await inBackgroundSpan(
        `task ${job.data.name}`,
        { 'reelstat.task': job.data.name, 'reelstat.task.execution': job.data.executionType },
        () => runTask(runtime, service, job.data, controller.signal),
      );
    } finally {
      running.delete(job.data.name);
      finished();
    }
  };
  const stopWorkers: Array<() => Promise<void>> = [];
  for (const group of service.registry.groups) stopWorkers.push(await runtime.queue.work<TaskJobData>(group, handle));
  runtime.metrics.watchQueueDepth(() =>
    Promise.all(service.registry.groups.map(async (group): Promise<[string, number]> => [group, await runtime.queue.depth(group)])),
  );

  return async () => {
    // A full sync may take minutes: shutdown stops it between two pages instead of waiting for the end. Abort
    // first: closing a BullMQ worker waits for its running job.
    for (const { controller } of running.values()) controller.abort(new TaskStopped('Reelstat is shutting down'));
    for (const stop of stopWorkers) await stop();
    await Promise.all([...running.values()].map((r) => r.done));
    await unsubscribe();
  };
}

async function runTask(runtime: Runtime, service: TaskService, data: TaskJobData, signal: AbortSignal): Promise<void> {
  const definition = service.registry.get(data.name);
  if (!definition) {
    runtime.logger.error({ task: data.name }, 'queued task has no definition');
    return;
  }
  const { runs } = service;
  const runId = data.runId ?? randomUUID();
  const name = definition.name;
  const logger = runtime.logger.child({ task: name, runId });
  const claimed = await runs.create({
    id: runId,
    name,
    type: definition.type,
    executionType: data.executionType,
    instanceId: runtime.config.instanceId,
  });
  if (!claimed) {
    logger.info('run ended before a worker picked it up (stopped while queued); not started');
    return;
  }
  const started = Date.now();
  let progress = 0;
  let lastUpdate = 0;
  const heartbeat = setInterval(() => {
    runs.heartbeat(runId, progress).catch((error: unknown) => logger.warn({ err: error }, 'task heartbeat failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const line =
    (color: LogColor, level: 'info' | 'warn' | 'error') =>
    async (message: string): Promise<void> => {
      logger[level](message);
      await runs.log(runId, message, color).catch((error: unknown) => logger.warn({ err: error }, 'task log line not written'));
    };
  const log: TaskLogger = {
    info: line('white', 'info'),
    step: line('dodgerblue', 'info'),
    success: line('lawngreen', 'info'),
    warn: line('orange', 'warn'),
    error: line('red', 'error'),
  };
  const context: TaskContext = {
    runtime,
    runId,
    executionType: data.executionType,
    serverIds: data.serverIds,
    signal,
    log,
    progress: {
      report(percent, message) {
        progress = Math.max(0, Math.min(100, Math.round(percent * 10) / 10));
        const now = Date.now();
        if (now - lastUpdate < UPDATE_EVERY_MS) return;
        lastUpdate = now;
        void publishTaskEvent(runtime.bus, name, {
          type: 'Update',
          message: message ?? `${name}: ${Math.floor(progress)}%`,
          progress,
          runId,
        }).catch(() => undefined);
      },
    },
  };

  await publishTaskEvent(runtime.bus, name, { type: 'Start', message: `${name} started`, runId }).catch(() => undefined);
  await service.publishList().catch(() => undefined);
  await log.step(`${name} started (${data.executionType})`);
  try {
    const summary = await definition.run(context);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    await log.success(`${name} finished in ${seconds} s${summary ? `: ${summary}` : ''}`);
    await runs.finish(runId, 'Success', summary);
    recordRun(runtime, name, 'success', started);
    runtime.metrics.taskLastSuccess.set({ task: name }, Date.now() / 1000);
    await publishTaskEvent(runtime.bus, name, { type: 'Success', message: `${name} finished`, runId }).catch(() => undefined);
  } catch (error) {
    const reason: unknown = signal.aborted ? signal.reason : error;
    const message = reason instanceof Error ? reason.message : String(reason);
    await log.error(signal.aborted ? `${name} stopped: ${message}` : `${name} failed: ${message}`);
    // A stop asked for by a user is not a failure worth a notification; anything else is.
    await runs.finish(runId, 'Failed', message, (transaction) =>
      signal.aborted
        ? Promise.resolve()
        : enqueueWebhookEvents(runtime.db, transaction, [
            { event: 'task_failed', server: null, occurred_at: new Date().toISOString(), data: { task: name, error: message } },
          ]),
    );
    recordRun(runtime, name, signal.aborted ? 'stopped' : 'failed', started);
    await publishTaskEvent(runtime.bus, name, { type: 'Error', message: `${name}: ${message}`, runId }).catch(() => undefined);
  } finally {
    clearInterval(heartbeat);
    await service.publishList().catch(() => undefined);
    const retention = await runtime.services.settings.get('TASK_LOG_RETENTION_DAYS').catch(() => 30);
    await runs.prune(retention).catch(() => undefined);
  }
}

function recordRun(runtime: Runtime, task: string, result: 'success' | 'failed' | 'stopped', started: number): void {
  runtime.metrics.taskRuns.inc({ task, result });
  runtime.metrics.taskDuration.observe({ task, result }, (Date.now() - started) / 1000);
}
