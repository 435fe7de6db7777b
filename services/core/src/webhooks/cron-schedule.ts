import cronParser from 'cron-parser';
import { AppError } from '../errors/app-error.js';

/**
 * Cron text of scheduled webhooks: five fields (minute hour day month weekday), read in the server's time
 * zone. Six-field (seconds) expressions are refused: a webhook firing every second is never what a user means.
 */
export function parseSchedule(schedule: string, timeZone: string, from: Date) {
  const text = schedule.trim();
  if (text.split(/\s+/).length !== 5) {
    throw AppError.badRequest(`Invalid schedule "${text}": a cron text has five fields (minute hour day month weekday)`);
  }
  try {
    return cronParser.parseExpression(text, { currentDate: from, tz: timeZone });
  } catch (error) {
    throw AppError.badRequest(`Invalid schedule "${text}": ${(error as Error).message}`);
  }
}

/** The next `count` runs after `from`, for the form's preview and the scheduler. */
export function nextRuns(schedule: string, timeZone: string, from: Date, count = 3): Date[] {
  const expression = parseSchedule(schedule, timeZone, from);
  const runs: Date[] = [];
  for (let i = 0; i < count; i++) runs.push(expression.next().toDate());
  return runs;
}

/** The latest run time in (after, upTo], or null: the scheduler fires at most once per tick, never a backlog. */
export function dueRun(schedule: string, timeZone: string, after: Date, upTo: Date): Date | null {
  const expression = parseSchedule(schedule, timeZone, after);
  let due: Date | null = null;
  for (let i = 0; i < 10_000; i++) {
    const next = expression.next().toDate();
    if (next.getTime() > upTo.getTime()) break;
    due = next;
  }
  return due;
}
