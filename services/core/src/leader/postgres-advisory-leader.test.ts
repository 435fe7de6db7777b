import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresAdvisoryLeader } from './postgres-advisory-leader.js';
import { createTestDatabase, testLogger, type TestDatabase, waitUntil } from '../test-support/test-services.js';

describe('PostgresAdvisoryLeader', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  const elector = (group: string, instanceId: string) =>
    new PostgresAdvisoryLeader({ databaseUrl: database.url, group, renewMs: 200, instanceId }, testLogger);

  // Handing over and independent groups: leader-elector.contract.test.ts (shared with the Lease elector).
  it('steps down when its database session is killed, and a follower takes over', async () => {
    const a = elector('failover', 'a');
    const b = elector('failover', 'b');
    // Every change is checked when it happens: two leaders at once would show here, whenever it occurred.
    const leading = new Set<string>();
    let mostAtOnce = 0;
    for (const [name, candidate] of [
      ['a', a],
      ['b', b],
    ] as const) {
      candidate.onChange((now) => {
        if (now) leading.add(name);
        else leading.delete(name);
        mostAtOnce = Math.max(mostAtOnce, leading.size);
      });
    }
    await a.start();
    await b.start();
    expect(a.isLeader).toBe(true);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      // Kill the leader's session from outside, as a network cut or database restart would.
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'reelstat-leader-failover' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
      );
      await waitUntil(() => !a.isLeader);
      await waitUntil(() => b.isLeader || a.isLeader);
      // The one that does not lead tries again after the new leader took the lock, and fails: its session's
      // last statement is a finished lock attempt started after that moment.
      const settled = (await admin.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
      await waitUntil(async () => {
        const { rows } = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'reelstat-leader-failover' AND state = 'idle'
              AND query LIKE '%pg_try_advisory_lock%' AND query_start > $1
              AND pid NOT IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
          [settled],
        );
        return rows[0]!.n > 0;
      });
    } finally {
      await admin.end();
    }
    // Exactly one leads again, and never were two leading at once.
    expect(Number(a.isLeader) + Number(b.isLeader)).toBe(1);
    expect(mostAtOnce).toBe(1);
    await a.stop();
    await b.stop();
  });
});
