import type { Runtime } from '../runtime/runtime.js';

/** SPEC.md's task names; they are also the socket.io event names of their background task events. */
export const TASK_NAMES = ['FullSyncTask', 'PartialSyncTask', 'PlaybackSyncTask', 'BackupTask'] as const;
export type TaskName = (typeof TASK_NAMES)[number];

export type TaskType = 'JOB' | 'IMPORT';
export type ExecutionType = 'Manual' | 'Automatic';
export type TaskResult = 'Running' | 'Success' | 'Failed';

/** SPEC.md §9: the only intervals a task may run on, in minutes. */
export const TASK_INTERVALS = [15, 30, 60, 720, 1440, 10080] as const;
export const DEFAULT_TASK_INTERVAL = 15;

/** Colours of the console-style log lines, as the Logs tab shows them. */
export type LogColor = 'white' | 'lawngreen' | 'yellow' | 'orange' | 'red' | 'dodgerblue';

export interface TaskLogger {
  info(message: string): Promise<void>;
  step(message: string): Promise<void>;
  success(message: string): Promise<void>;
  warn(message: string): Promise<void>;
  error(message: string): Promise<void>;
}

export interface TaskProgress {
  /** 0–100. Updates are throttled before they reach browsers. */
  report(percent: number, message?: string): void;
}

export interface TaskContext {
  runtime: Runtime;
  runId: string;
  executionType: ExecutionType;
  /** Sync tasks: the servers this run is for (the schedule's due ones); every server when absent. */
  serverIds?: readonly string[] | undefined;
  /** Aborted when an administrator stops the run or the process shuts down. */
  signal: AbortSignal;
  log: TaskLogger;
  progress: TaskProgress;
}

export interface TaskDefinition {
  name: TaskName;
  type: TaskType;
  /** IMPORT tasks run only on demand; others get an interval setting (SPEC.md §9). */
  scheduled: boolean;
  /**
   * Tasks sharing a group never run at the same time anywhere in the cluster: the group is the queue kind,
   * whose jobs run one at a time across every replica.
   */
  group: string;
  /** Minutes between scheduled runs until an administrator picks one (default DEFAULT_TASK_INTERVAL). */
  defaultInterval?: (typeof TASK_INTERVALS)[number];
  /** Tasks that talk to media servers are not scheduled while none is linked. */
  requiresMediaServer: boolean;
  /** Success message for the background task event. */
  run(context: TaskContext): Promise<string>;
}
