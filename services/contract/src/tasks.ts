import { z } from 'zod';

/** SPEC.md's task names, also the socket.io event names of their background task events. */
export const TASK_NAME_LIST = ['FullSyncTask', 'PartialSyncTask', 'PlaybackSyncTask', 'BackupTask'] as const;
export const specTaskName = z.enum(TASK_NAME_LIST);

/** The incumbent's (Jellystat's) name of each task, accepted wherever a task name is and shown beside SPEC's. */
export const INCUMBENT_TASK_NAMES: Record<string, string> = {
  FullSyncTask: 'JellyfinSync',
  PartialSyncTask: 'PartialJellyfinSync',
  PlaybackSyncTask: 'JellyfinPlaybackReportingPluginSync',
  BackupTask: 'Backup',
};
const SPEC_NAME_OF = new Map(Object.entries(INCUMBENT_TASK_NAMES).map(([spec, incumbent]) => [incumbent, spec]));

/** A task name as a request gives it: SPEC's or the incumbent's, answered as SPEC's. */
export const taskName = z
  .string()
  .max(100, 'is not a task name')
  .transform((name) => SPEC_NAME_OF.get(name) ?? name)
  .pipe(
    z.enum(TASK_NAME_LIST, {
      error: `must be one of ${TASK_NAME_LIST.join(', ')} (or the incumbent's JellyfinSync, PartialJellyfinSync, JellyfinPlaybackReportingPluginSync, Backup)`,
    }),
  );

/** SPEC.md §9: the only intervals (minutes) a task may be given. */
export const TASK_INTERVAL_CHOICES = [15, 30, 60, 720, 1440, 10080] as const;

/** A row of the tasks table; also the payload items of the live 'task-list' event. */
export const taskInfo = z.object({
  name: specTaskName,
  /** The incumbent's name of the task (e.g. JellyfinSync). */
  task: z.string(),
  type: z.enum(['JOB', 'IMPORT']),
  running: z.boolean(),
  /** Minutes; null for IMPORT tasks (run on demand only). */
  Interval: z.number().int().nullable(),
});
export type TaskInfoAnswer = z.infer<typeof taskInfo>;
export const taskListAnswer = z.array(taskInfo);
/** `?as=object`: the incumbent's form, `{ <name>: { Interval } }` under both names of each scheduled task. */
export const taskSettingsQuery = z.object({ as: z.enum(['list', 'object'], { error: 'must be list or object' }).default('list') });
export const taskSettingsObject = z.record(z.string(), z.object({ Interval: z.number().int().nullable(), running: z.boolean() }));

export const stopTaskQuery = z.object({ task: taskName });

export const setTaskSettingsBody = z.object({
  taskname: taskName,
  Interval: z
    .number()
    .int()
    .refine((v) => (TASK_INTERVAL_CHOICES as readonly number[]).includes(v), {
      message: `must be one of ${TASK_INTERVAL_CHOICES.join(', ')} (minutes)`,
    }),
});

/** Payload of the background task events (socket.io event = task name). */
export const taskEvent = z.object({
  type: z.enum(['Start', 'Update', 'Success', 'Error']),
  message: z.string(),
  progress: z.number().optional(),
  runId: z.string(),
});
export type TaskEventPayload = z.infer<typeof taskEvent>;

/** Log entry of SPEC.md §3: one task run with its console-style lines. */
export const logEntry = z.object({
  Id: z.string(),
  Name: z.string(),
  Type: z.enum(['JOB', 'IMPORT']),
  ExecutionType: z.enum(['Manual', 'Automatic']),
  TimeRun: z.string(),
  /** Seconds (so far, while running). */
  Duration: z.number(),
  Result: z.enum(['Running', 'Success', 'Failed']),
  Progress: z.number().nullable(),
  Log: z.array(z.object({ Message: z.string(), color: z.string(), At: z.string() })),
});
export type LogEntry = z.infer<typeof logEntry>;
export const logsAnswer = z.array(logEntry);
export const logsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
});
