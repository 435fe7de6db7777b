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
    await a.start();
    await b.start();
    expect(a.isLeader).toBe(true);
    // Kill the leader's session from outside, as a network cut or database restart would.
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'reelstat-leader-failover' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
    );
    await admin.end();
    await waitUntil(() => !a.isLeader);
    await waitUntil(() => b.isLeader || a.isLeader);
    // Exactly one leads again.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(Number(a.isLeader) + Number(b.isLeader)).toBe(1);
    await a.stop();
    await b.stop();
  });
});
