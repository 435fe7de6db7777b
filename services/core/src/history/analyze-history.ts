import type { Database } from '../db/database.js';
import { ROLLUP_TABLES } from './rollup-sql.js';

/**
 * An import that added at least this many plays analyses the history's tables when it ends; fewer are left to
 * autovacuum (an incremental import of a few plays would pay a whole ANALYZE for nothing).
 */
export const ANALYZE_AFTER_PLAYS = 1000;

/**
 * Planner statistics for the history and every table derived from it, after an import wrote many plays at once.
 * A fresh install's tables were analysed empty by the migration, and until autovacuum's next look (up to a
 * minute or more after a long import) PostgreSQL plans for a few rows: the all-time day chart over seventeen
 * years of imported days joined its rows to its day plan by a nested loop and took 15-28 s instead of 0.3
 * (docs/performance.md, "Issue 20, session 7"). A restore analyses what it loads itself (backup/staging-tables.ts).
 */
export async function analyzeHistory(db: Database): Promise<void> {
  await db.query(`ANALYZE playback_history, user_last_plays, ${ROLLUP_TABLES.join(', ')}`);
}
