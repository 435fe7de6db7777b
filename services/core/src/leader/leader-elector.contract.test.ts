import { KubeConfig } from '@kubernetes/client-node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderElector } from './leader-elector.js';
import { KubernetesLeaseLeader } from './kubernetes-lease-leader.js';
import { PostgresAdvisoryLeader } from './postgres-advisory-leader.js';
import { createTestDatabase, testLogger, type TestDatabase, waitUntil } from '../test-support/test-services.js';
import { FakeKubeApiServer } from '../test-support/k8s-fake/index.js';

/** Short Lease timings so the contract runs in seconds; the ratios are the production ones (15/10/2). */
export const FAST_LEASE = { durationMs: 1500, renewDeadlineMs: 1000, retryMs: 200 };

interface Implementation {
  name: string;
  setUp(): Promise<{
    elector(group: string, id: string): LeaderElector;
    /** Lock attempts by candidates that do not lead, seen so far (it only grows): proof that a follower kept trying. */
    followerAttempts(group: string): Promise<number>;
    tearDown(): Promise<void>;
  }>;
}

const implementations: Implementation[] = [
  {
    name: 'PostgresAdvisoryLeader',
    async setUp() {
      const database: TestDatabase = await createTestDatabase();
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      // A finished attempt shows as an idle session, holding no lock, whose last statement is the try; each
      // attempt has its own start time (polled far faster than the 200 ms between attempts).
      const seen = new Set<string>();
      return {
        elector: (group, instanceId) =>
          new PostgresAdvisoryLeader({ databaseUrl: database.url, group, renewMs: 200, instanceId }, testLogger),
        async followerAttempts(group) {
          const { rows } = await admin.query<{ pid: number; started: string }>(
            `SELECT pid, query_start::text AS started FROM pg_stat_activity
              WHERE datname = current_database() AND application_name = $1 AND state = 'idle'
                AND query LIKE '%pg_try_advisory_lock%'
                AND pid NOT IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
            [`reelstat-leader-${group}`],
          );
          for (const row of rows) seen.add(`${group}|${row.pid}|${row.started}`);
          return [...seen].filter((key) => key.startsWith(`${group}|`)).length;
        },
        tearDown: async () => {
          await admin.end();
          await database.drop();
        },
      };
    },
  },
  {
    name: 'KubernetesLeaseLeader',
    async setUp() {
      const server = new FakeKubeApiServer();
      await server.start();
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromString(server.kubeconfig('reelstat'));
      return {
        elector: (group, identity) =>
          new KubernetesLeaseLeader({ kubeConfig, namespace: 'reelstat', group, identity, timings: FAST_LEASE }, testLogger),
        // The leader reads and then writes the Lease at each renewal; a follower only reads it. Reads beyond the
        // writes are the followers' attempts (one read in flight aside).
        async followerAttempts(group) {
          const lease = server.requests.filter((entry) => entry.plural === 'leases' && entry.name === `reelstat-${group}`);
          const reads = lease.filter((entry) => entry.verb === 'get').length;
          const writes = lease.filter((entry) => entry.verb === 'update' || entry.verb === 'create').length;
          return Math.max(0, reads - writes - 1);
        },
        tearDown: () => server.stop(),
      };
    },
  },
];

describe.each(implementations)('LeaderElector contract: $name', (implementation) => {
  let context: Awaited<ReturnType<Implementation['setUp']>>;
  beforeAll(async () => {
    context = await implementation.setUp();
  });
  afterAll(async () => {
    await context.tearDown();
  });

  it('lets exactly one of two candidates lead, and hands over when the leader stops', async () => {
    const a = context.elector('scheduler', 'a');
    const b = context.elector('scheduler', 'b');
    const changes: string[] = [];
    a.onChange((leading) => changes.push(`a:${leading}`));
    b.onChange((leading) => changes.push(`b:${leading}`));
    await a.start();
    await b.start();
    expect(a.isLeader).toBe(true);
    // b keeps trying (three attempts after a leads) and must never lead while a does: every change is in
    // `changes`, so a moment of b leading would show there whenever it happened.
    const attemptsBefore = await context.followerAttempts('scheduler');
    await waitUntil(async () => (await context.followerAttempts('scheduler')) >= attemptsBefore + 3);
    expect(a.isLeader && !b.isLeader).toBe(true);
    expect(changes).toEqual(['a:true']);

    await a.stop();
    expect(a.isLeader).toBe(false);
    await waitUntil(() => b.isLeader);
    expect(changes).toEqual(['a:true', 'a:false', 'b:true']);
    await b.stop();
  });

  it('keeps groups independent', async () => {
    const scheduler = context.elector('scheduler-2', 'x');
    const operator = context.elector('operator-2', 'x');
    await scheduler.start();
    await operator.start();
    expect(scheduler.isLeader && operator.isLeader).toBe(true);
    await scheduler.stop();
    await operator.stop();
  });

  it('reports no leadership before start and after stop', async () => {
    const elector = context.elector('lifecycle', 'solo');
    expect(elector.isLeader).toBe(false);
    await elector.start();
    expect(elector.isLeader).toBe(true);
    await elector.stop();
    expect(elector.isLeader).toBe(false);
  });
});
