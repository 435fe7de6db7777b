import { startActivityMonitor, startTaskSchedule, startTaskWorkers, startWebhookSchedule, type Runtime } from '@reelstat/core';

/**
 * Work that runs on the scheduler leader only (the activity monitor, schedule timers). Started when this
 * process becomes leader, stopped when it stops leading or shuts down.
 */
export interface LeaderLoop {
  readonly name: string;
  start(runtime: Runtime): Promise<() => Promise<void>>;
}

/** Queue workers: every scheduler process registers them (any of them may run a job). */
export interface WorkerRegistration {
  readonly name: string;
  register(runtime: Runtime): Promise<() => Promise<void>>;
}

/**
 * The scheduler's parts, one line per feature. A missing or duplicate name fails at start-up
 * (see scheduler-role.ts), so a typo cannot leave a feature silently unscheduled.
 */
export const leaderLoops: LeaderLoop[] = [
  // Fires tasks on their intervals, fails runs whose process died, prunes old runs.
  { name: 'task-schedule', start: async (runtime) => startTaskSchedule(runtime) },
  // Polls every linked media server's sessions and records plays exactly once (services/core/src/activity).
  { name: 'activity-monitor', start: (runtime) => startActivityMonitor(runtime) },
  // Fires scheduled webhooks (cron, default the monthly report) and prunes old deliveries.
  { name: 'webhook-schedule', start: async (runtime) => startWebhookSchedule(runtime) },
];
export const workerRegistrations: WorkerRegistration[] = [
  // Runs queued tasks (syncs, imports) and stops them on request.
  { name: 'tasks', register: (runtime) => startTaskWorkers(runtime) },
];
