import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubernetesLeaseLeader } from './kubernetes-lease-leader.js';
import { testLogger, waitUntil } from '../test-support/test-services.js';
import { FakeKubeApiServer } from '../test-support/k8s-fake/index.js';
import { leaseHolderChanges } from '../test-support/k8s-fake/lease-history.js';

const TIMINGS = { durationMs: 1500, renewDeadlineMs: 1000, retryMs: 200 };

describe('KubernetesLeaseLeader', () => {
  let server: FakeKubeApiServer;
  let kubeConfig: KubeConfig;
  beforeEach(async () => {
    server = new FakeKubeApiServer();
    await server.start();
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(server.kubeconfig('reelstat'));
  });
  afterEach(async () => {
    await server.stop();
  });
  const elector = (identity: string) =>
    new KubernetesLeaseLeader({ kubeConfig, namespace: 'reelstat', group: 'scheduler', identity, timings: TIMINGS }, testLogger);

  it('writes a Lease with the holder identity, duration and renewals', async () => {
    const a = elector('pod-a');
    await a.start();
    await waitUntil(() => server.requests.filter((entry) => entry.verb === 'update' && entry.status === 200).length >= 2);
    const lease = server.get('coordination.k8s.io/v1', 'leases', 'reelstat', 'reelstat-scheduler');
    expect(lease?.spec).toMatchObject({ holderIdentity: 'pod-a', leaseDurationSeconds: 2, leaseTransitions: 0 });
    await a.stop();
    expect(server.get('coordination.k8s.io/v1', 'leases', 'reelstat', 'reelstat-scheduler')?.spec).toMatchObject({ holderIdentity: '' });
  });

  it('steps down when the API server is unreachable past the renew deadline, and never two lead at once', async () => {
    const a = elector('pod-a');
    const b = elector('pod-b');
    const leading = new Set<string>();
    let overlap = false;
    for (const [name, candidate] of [
      ['a', a],
      ['b', b],
    ] as const) {
      candidate.onChange((isLeader) => {
        if (isLeader) leading.add(name);
        else leading.delete(name);
        if (leading.size > 1) overlap = true;
      });
    }
    await a.start();
    await b.start();
    expect(a.isLeader).toBe(true);
    server.setReachable(false);
    // The leader gives up by itself once it has gone the renew deadline without renewing.
    await waitUntil(() => !a.isLeader);
    // Nobody can acquire while the server is away.
    expect(b.isLeader).toBe(false);
    server.setReachable(true);
    await waitUntil(() => a.isLeader || b.isLeader);
    expect(overlap).toBe(false);
    await a.stop();
    await b.stop();
    // The server's own record: a holder change only after the previous holder's Lease had expired or been released.
    for (const change of leaseHolderChanges(server, 'reelstat-scheduler')) {
      expect(change.released || change.gapMs >= change.previousDurationMs, JSON.stringify(change)).toBe(true);
    }
  });

  it('a follower watches the Lease and takes it from a holder that stopped renewing once its Lease has expired', async () => {
    // A holder in another process that renews twice and then dies (no release).
    server.create('coordination.k8s.io/v1', 'leases', 'reelstat', {
      metadata: { name: 'reelstat-scheduler' },
      spec: { holderIdentity: 'pod-dead', leaseDurationSeconds: 2, renewTime: new Date().toISOString() },
    });
    const b = elector('pod-b');
    await b.start();
    expect(b.isLeader).toBe(false);
    await waitUntil(() => server.requests.some((entry) => entry.verb === 'watch' && entry.plural === 'leases' && entry.status === 200));
    for (let renewal = 0; renewal < 2; renewal += 1) {
      server.edit('coordination.k8s.io/v1', 'leases', 'reelstat', 'reelstat-scheduler', (lease) => {
        (lease.spec as Record<string, unknown>).renewTime = new Date().toISOString();
      });
    }
    const lastRenewal = Date.now();
    await waitUntil(() => b.isLeader, 10_000);
    const taken = server.requests.find(
      (entry) =>
        entry.plural === 'leases' &&
        entry.verb === 'update' &&
        entry.status === 200 &&
        (entry.object?.spec as { holderIdentity?: string } | undefined)?.holderIdentity === 'pod-b',
    );
    // Never before the dead holder's Lease (2 s, as it wrote it) expired, counted from its last renewal.
    expect(taken!.at).toBeGreaterThanOrEqual(lastRenewal + 2000);
    await b.stop();
  });
});
