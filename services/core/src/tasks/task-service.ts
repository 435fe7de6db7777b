/** Starting, stopping and listing tasks, from any process (the API routes, the schedule). */
import { randomUUID } from 'node:crypto';
import { publishUiEvent } from '../bus/ui-events.js';
import { AppError } from '../errors/app-error.js';
import type { Runtime } from '../runtime/runtime.js';
import { TASK_CONTROL_CHANNEL, type TaskControlMessage } from './task-events.js';
import { taskRegistry, type TaskRegistry } from './task-registry.js';
import { TaskRuns } from './task-runs.js';
import { INCUMBENT_TASK_NAMES } from '@reelstat/contract';
import { DEFAULT_TASK_INTERVAL, TASK_INTERVALS, type ExecutionType, type TaskName, type TaskType } from './task-types.js';

export interface TaskJobData {
  name: TaskName;
  executionType: ExecutionType;
  /** The task_runs row recorded when the run was queued. */
  runId?: string;
  /** Sync tasks: only these servers (the schedule's due ones); every server when absent. */
  serverIds?: string[];
}

/** A row of the tasks table (and of the live 'task-list' event). */
export interface TaskInfo {
  name: TaskName;
  /** The incumbent's (Jellystat's) name, so its clients find their tasks. */
  task: string;
  type: TaskType;
  running: boolean;
  /** Minutes; null for IMPORT tasks, which run only on demand. */
  Interval: number | null;
}

export class TaskService {
  readonly runs: TaskRuns;

  constructor(
    private readonly runtime: Runtime,
    readonly registry: TaskRegistry = taskRegistry,
  ) {
    this.runs = new TaskRuns(runtime.db);
  }

  async list(): Promise<TaskInfo[]> {
    const [live, intervals] = await Promise.all([
      this.runs.liveRuns(this.registry.all.map((d) => d.name)),
      this.runtime.services.settings.get('TASK_INTERVALS'),
    ]);
    const running = new Set(live.map((r) => r.name));
    return this.registry.all.map((d) => ({
      name: d.name,
      task: INCUMBENT_TASK_NAMES[d.name] ?? d.name,
      type: d.type,
      running: running.has(d.name),
      Interval: d.scheduled ? (intervals[d.name] ?? d.defaultInterval ?? DEFAULT_TASK_INTERVAL) : null,
    }));
  }

  async publishList(): Promise<void> {
    await publishUiEvent(this.runtime.bus, 'task-list', await this.list());
  }

  /**
   * Queues a run. The job id is the task name, so a second start while it waits or runs queues nothing; the
   * queue kind is the exclusion group, so full and partial sync never run at once anywhere in the cluster.
   */
  async start(name: TaskName, executionType: ExecutionType, serverIds?: string[]): Promise<{ message: string }> {
    const definition = this.registry.get(name);
    if (!definition) throw AppError.badRequest(`Unknown task ${name}`);
    if (definition.requiresMediaServer && (await this.runtime.services.mediaServers.list()).length === 0) {
      throw AppError.conflict('No media server is linked yet');
    }
    const group = this.registry.inGroup(definition.group);
    // Replicas asked at the same moment take turns (a lock per exclusion group), so the second one sees the
    // run the first one recorded and answers clearly instead of racing the queue.
    await this.runtime.db.sequelize.transaction(async (transaction) => {
      await this.runtime.db.query(
        'SELECT pg_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
        [`reelstat-task:${definition.group}`],
        transaction,
      );
      const [live] = await this.runs.liveRuns(group, transaction);
      if (live?.name === name) throw AppError.conflict(`${name} is already running`);
      if (live) throw AppError.conflict(`${name} cannot start while ${live.name} is running`);
      const runId = randomUUID();
      await this.runs.create({ id: runId, name, type: definition.type, executionType, instanceId: null }, transaction);
      const queued = await this.runtime.queue.enqueue<TaskJobData>(
        definition.group,
        { name, executionType, runId, ...(serverIds ? { serverIds } : {}) },
        { jobId: name },
      );
      if (!queued.added) throw AppError.conflict(`${name} is already running`);
    });
    return { message: `${name} started` };
  }

  /** Asks whichever process runs the task to stop it (over the bus); the run ends Failed within a moment. */
  async stop(name: TaskName): Promise<{ message: string }> {
    if (!this.registry.get(name)) throw AppError.badRequest(`Unknown task ${name}`);
    const live = await this.runs.liveRuns([name]);
    if (live.length === 0) throw AppError.conflict(`${name} is not running`);
    for (const run of live.filter((r) => r.instance_id === null)) {
      // Queued, not picked up yet: ended here, and the worker that picks the job finds it ended and skips it.
      await this.runs.finish(run.id, 'Failed', 'Stopped by an administrator before it started');
      await this.runs.log(run.id, `${name} stopped before it started`, 'red');
    }
    await this.runtime.bus.publish<TaskControlMessage>(TASK_CONTROL_CHANNEL, { action: 'stop', name });
    return { message: `Stopping ${name}` };
  }

  async setInterval(name: TaskName, interval: number): Promise<TaskInfo[]> {
    const definition = this.registry.get(name);
    if (!definition) throw AppError.badRequest(`Unknown task ${name}`);
    if (!definition.scheduled) throw AppError.badRequest(`${name} runs only on demand and has no interval`);
    if (!(TASK_INTERVALS as readonly number[]).includes(interval)) {
      throw AppError.badRequest(`Interval must be one of ${TASK_INTERVALS.join(', ')} minutes`);
    }
    const intervals = await this.runtime.services.settings.get('TASK_INTERVALS');
    await this.runtime.services.settings.set('TASK_INTERVALS', { ...intervals, [name]: interval });
    const list = await this.list();
    await publishUiEvent(this.runtime.bus, 'task-list', list);
    return list;
  }
}
