import type { Database } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import { parseSchedule, dueRun } from './cron-schedule.js';
import { enqueueForWebhook } from './webhook-events.js';
import { buildReport } from './monthly-report.js';

interface ScheduledRow {
  id: number;
  schedule: string;
  last_triggered_at: Date | null;
  created_at: Date;
}

/**
 * Fires the scheduled webhooks that are due at `now` (run by the scheduler leader, on its clock). Each run
 * sends the report of the period since the schedule's previous run: the default schedule (09:00 on day 1)
 * reports on the month before. The run is claimed by moving last_triggered_at with a compare-and-set in the
 * same transaction as its delivery row, so a failover never sends one run twice or skips it.
 * A schedule missed for longer than one period (the leader was down) fires once, not once per missed run.
 */
export async function runScheduledWebhooks(db: Database, timeZone: string, now: Date, logger: Logger): Promise<number> {
  const rows = await db.query<ScheduledRow>(
    `SELECT id, schedule, last_triggered_at, created_at FROM webhooks WHERE enabled AND trigger_type = 'scheduled' AND schedule IS NOT NULL`,
  );
  let fired = 0;
  for (const row of rows) {
    const after = new Date(row.last_triggered_at ?? row.created_at);
    let due: Date | null;
    try {
      due = dueRun(row.schedule, timeZone, after, now);
    } catch (error) {
      logger.warn({ webhook: row.id, err: (error as Error).message }, 'scheduled webhook has an invalid schedule');
      continue;
    }
    if (!due) continue;
    const runAt = due;
    const previous = parseSchedule(row.schedule, timeZone, runAt).prev().toDate();
    await db.sequelize.transaction(async (transaction) => {
      const claimed = await db.query(
        `UPDATE webhooks SET last_triggered_at = $2 WHERE id = $1 AND date_trunc('milliseconds', last_triggered_at) IS NOT DISTINCT FROM $3::timestamptz RETURNING id`,
        [row.id, runAt.toISOString(), row.last_triggered_at ? new Date(row.last_triggered_at).toISOString() : null],
        transaction,
      );
      if (claimed.length === 0) return;
      const data = await buildReport(db, previous, runAt, timeZone, transaction);
      await enqueueForWebhook(db, row.id, { event: 'monthly_report', server: null, occurred_at: runAt.toISOString(), data }, transaction);
      fired++;
    });
  }
  return fired;
}

/** Delivered and dead deliveries older than the retention are removed (pending ones never are). */
export async function pruneDeliveries(db: Database, retentionDays: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'dead') AND created_at < now() - make_interval(days => $1) RETURNING id`,
    [retentionDays],
  );
  return rows.length;
}
