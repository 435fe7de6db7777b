import { KubeConfig } from '@kubernetes/client-node';
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
  setUp(): Promise<{ elector(group: string, id: string): LeaderElector; tearDown(): Promise<void> }>;
}

const implementations: Implementation[] = [
  {
    name: 'PostgresAdvisoryLeader',
    async setUp() {
      const database: TestDatabase = await createTestDatabase();
      return {
        elector: (group, instanceId) =>
          new PostgresAdvisoryLeader({ databaseUrl: database.url, group, renewMs: 200, instanceId }, testLogger),
        tearDown: () => database.drop(),
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
    // b keeps trying (several retry periods) and must never lead while a does.
    const samples: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      samples.push(a.isLeader && !b.isLeader);
    }
    expect(samples).toEqual([true, true, true, true, true]);

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
