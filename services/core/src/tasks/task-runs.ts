import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { ExecutionType, LogColor, TaskResult, TaskType } from './task-types.js';

/** How often a running task proves its process is alive, and how old a heartbeat may get before the run is dead. */
export const HEARTBEAT_MS = 2_000;
export const STALE_AFTER_MS = 15_000;

export interface TaskRunRow {
  id: string;
  name: string;
  type: TaskType;
  execution_type: ExecutionType;
  result: TaskResult;
  progress: number | null;
  instance_id: string | null;
  started_at: Date;
  finished_at: Date | null;
  heartbeat_at: Date;
  message: string | null;
}

export interface TaskLogLine {
  message: string;
  color: LogColor;
  at: Date;
}

/** task_runs and task_run_logs: every run of every task, with its console-style log. */
export class TaskRuns {
  constructor(private readonly db: Database) {}

  /**
   * Records a run. Called when the run is queued (instance unknown yet, so that every replica sees it at once)
   * and again by the worker that picks it up: the second call claims the row (or recreates it if it was
   * already ended: stopped before it started, or failed as stale, and false is answered). The worker's insert
   * waits for the queuing transaction, then updates.
   */
  async create(
    run: { id: string; name: string; type: TaskType; executionType: ExecutionType; instanceId: string | null },
    transaction?: Transaction,
  ): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO task_runs (id, name, type, execution_type, result, progress, instance_id, started_at, heartbeat_at)
       VALUES ($1, $2, $3, $4, 'Running', 0, $5, now(), now())
       ON CONFLICT (id) DO UPDATE SET instance_id = EXCLUDED.instance_id, started_at = now(), heartbeat_at = now()
       WHERE task_runs.result = 'Running'
       RETURNING id`,
      [run.id, run.name, run.type, run.executionType, run.instanceId],
      transaction,
    );
    return rows.length > 0;
  }

  async heartbeat(id: string, progress: number): Promise<void> {
    await this.db.query(`UPDATE task_runs SET heartbeat_at = now(), progress = $2 WHERE id = $1 AND result = 'Running' RETURNING id`, [
      id,
      progress,
    ]);
  }

  /** `alongside` runs in the same transaction (the task_failed webhook's outbox row). */
  async finish(
    id: string,
    result: Exclude<TaskResult, 'Running'>,
    message: string,
    alongside?: (transaction: Transaction) => Promise<unknown>,
  ): Promise<void> {
    await this.db.sequelize.transaction(async (transaction) => {
      await this.db.query(
        `UPDATE task_runs SET result = $2, message = $3, finished_at = now(), heartbeat_at = now(),
           progress = CASE WHEN $2 = 'Success' THEN 100 ELSE progress END
         WHERE id = $1 RETURNING id`,
        [id, result, message],
        transaction,
      );
      await alongside?.(transaction);
    });
  }

  async log(runId: string, message: string, color: LogColor): Promise<void> {
    await this.db.query('INSERT INTO task_run_logs (run_id, message, color) VALUES ($1, $2, $3) RETURNING id', [runId, message, color]);
  }

  /** Runs still marked Running whose process has been heard from recently. */
  async liveRuns(names: readonly string[], transaction?: Transaction): Promise<TaskRunRow[]> {
    return this.db.query<TaskRunRow>(
      `SELECT * FROM task_runs WHERE result = 'Running' AND name = ANY($1::text[])
         AND heartbeat_at > now() - make_interval(secs => $2) ORDER BY started_at`,
      [names, STALE_AFTER_MS / 1000],
      transaction,
    );
  }

  /**
   * Marks Failed the runs whose process stopped sending heartbeats (killed, crashed, lost its database).
   * A run owned by a live replica keeps beating, so it is never touched.
   */
  async failStaleRuns(): Promise<TaskRunRow[]> {
    const failed = await this.db.query<TaskRunRow>(
      `UPDATE task_runs SET result = 'Failed', finished_at = heartbeat_at,
         message = 'The process running this task stopped before it finished'
       WHERE result = 'Running' AND heartbeat_at < now() - make_interval(secs => $1) RETURNING *`,
      [STALE_AFTER_MS / 1000],
    );
    for (const run of failed) {
      await this.log(run.id, `The process running this task (${run.instance_id ?? 'unknown'}) stopped before it finished`, 'red');
    }
    return failed;
  }

  /** When each task last started (any execution type): the schedule counts from there. */
  async lastStarts(): Promise<Map<string, Date>> {
    const rows = await this.db.query<{ name: string; started_at: Date }>(
      'SELECT name, max(started_at) AS started_at FROM task_runs GROUP BY name',
    );
    return new Map(rows.map((row) => [row.name, row.started_at]));
  }

  /** Newest first, with each run's log lines. */
  async list(limit: number, offset = 0): Promise<Array<TaskRunRow & { lines: TaskLogLine[] }>> {
    return this.db.query<TaskRunRow & { lines: TaskLogLine[] }>(
      `SELECT r.*, COALESCE(l.lines, '[]'::json) AS lines
       FROM (SELECT * FROM task_runs ORDER BY started_at DESC, id LIMIT $1 OFFSET $2) r
       LEFT JOIN LATERAL (
         SELECT json_agg(json_build_object('message', message, 'color', color, 'at', at) ORDER BY id) AS lines
         FROM task_run_logs WHERE run_id = r.id
       ) l ON true
       ORDER BY r.started_at DESC, r.id`,
      [limit, offset],
    );
  }

  /** Removes finished runs older than the retention (their log lines go with them). */
  async prune(retentionDays: number): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM task_runs WHERE result <> 'Running' AND started_at < now() - make_interval(days => $1) RETURNING id`,
      [retentionDays],
    );
    return rows.length;
  }
}
