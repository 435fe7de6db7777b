import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { MonthlyReportData } from './webhook-events.js';

const TOP = 5;

/** The previous calendar month in the server's time zone, as instants (local midnight of day 1 to day 1). */
export async function previousMonth(db: Database, timeZone: string, now: Date): Promise<{ from: Date; to: Date }> {
  const [row] = await db.query<{ from_at: Date; to_at: Date }>(
    `SELECT (date_trunc('month', $1::timestamptz AT TIME ZONE $2) - interval '1 month') AT TIME ZONE $2 AS from_at,
            date_trunc('month', $1::timestamptz AT TIME ZONE $2) AT TIME ZONE $2 AS to_at`,
    [now.toISOString(), timeZone],
  );
  return { from: new Date(row!.from_at), to: new Date(row!.to_at) };
}

/** "October 2026" for a calendar month, else "3 Oct 2026 – 9 Oct 2026". */
function periodLabel(from: Date, to: Date, timeZone: string): string {
  const month = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone });
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone });
  const startOfMonth = (date: Date) =>
    new Intl.DateTimeFormat('en-GB', { day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone })
      .format(date)
      .replace(',', '') === '1 00:00';
  const lastMoment = new Date(to.getTime() - 1);
  if (startOfMonth(from) && startOfMonth(to) && month.format(from) === month.format(lastMoment)) return month.format(from);
  return `${day.format(from)} – ${day.format(lastMoment)}`;
}

/**
 * Plays, watch time, active users and the top items (series count as one) and users of a period, from the
 * history itself (exact whatever the period's boundaries). Seconds stay seconds; formatters show units.
 */
export async function buildReport(
  db: Database,
  from: Date,
  to: Date,
  timeZone: string,
  transaction?: Transaction,
): Promise<MonthlyReportData> {
  const bind = [from.toISOString(), to.toISOString(), TOP];
  const [totals] = await db.query<{ plays: number; watch_seconds: number; active_users: number }>(
    `SELECT count(*)::int AS plays, coalesce(sum(played_seconds), 0)::bigint AS watch_seconds, count(DISTINCT (server_id, user_id))::int AS active_users
     FROM playback_history WHERE started_at >= $1 AND started_at < $2`,
    bind.slice(0, 2),
    transaction,
  );
  const topItems = await db.query<{ name: string; plays: number; watch_seconds: number }>(
    `SELECT coalesce(series_name, item_name) AS name, count(*)::int AS plays, sum(played_seconds)::bigint AS watch_seconds
     FROM playback_history WHERE started_at >= $1 AND started_at < $2
     GROUP BY 1 ORDER BY plays DESC, watch_seconds DESC, name LIMIT $3`,
    bind,
    transaction,
  );
  const topUsers = await db.query<{ name: string; plays: number; watch_seconds: number }>(
    `SELECT max(user_name) AS name, count(*)::int AS plays, sum(played_seconds)::bigint AS watch_seconds
     FROM playback_history WHERE started_at >= $1 AND started_at < $2
     GROUP BY server_id, user_id ORDER BY plays DESC, watch_seconds DESC, name LIMIT $3`,
    bind,
    transaction,
  );
  return {
    period: { from: from.toISOString(), to: to.toISOString(), label: periodLabel(from, to, timeZone), time_zone: timeZone },
    plays: totals?.plays ?? 0,
    watch_seconds: totals?.watch_seconds ?? 0,
    active_users: totals?.active_users ?? 0,
    top_items: topItems,
    top_users: topUsers,
  };
}
