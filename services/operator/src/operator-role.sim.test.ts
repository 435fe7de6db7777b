import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@reelstat/jellyfin-sim';
import { Runtime } from '@reelstat/core';
import { createTestDatabase, testConfig, testLogger, type TestDatabase, waitUntil } from '@reelstat/core/test-support/test-services.js';
import { FakeKubeApiServer, loadCrdFile, loadExampleFile, type KubeObject } from '@reelstat/core/test-support/k8s-fake/index.js';
import { OperatorRole } from './operator-role.js';
import type { Condition, MediaStatsServer } from './media-stats-server.js';

const NS = 'media';
const MSS = 'reelstat.io/v1alpha1';

describe('OperatorRole against the fake Kubernetes API server and the simulator', () => {
  let server: FakeKubeApiServer;
  let sim: RunningSimulator;
  let database: TestDatabase;
  let kubeconfigPath: string;
  const stops: Array<() => Promise<void>> = [];
  const runtimes: Runtime[] = [];

  beforeAll(async () => {
    [database, sim] = await Promise.all([
      createTestDatabase(),
      startSimulator({ flavor: 'jellyfin', clock: 'real', scale: 'tiny', seed: 17 }),
    ]);
    server = new FakeKubeApiServer();
    await server.start();
    server.applyCrd(loadCrdFile());
    kubeconfigPath = path.join(mkdtempSync(path.join(tmpdir(), 'reelstat-operator-')), 'kubeconfig');
    writeFileSync(kubeconfigPath, server.kubeconfig(NS));
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await Promise.all(runtimes.map((runtime) => runtime.close()));
    await server.stop();
    await sim.stop();
    await database.drop();
  });

  async function startOperator(podName: string, election: 'postgres' | 'lease' = 'postgres'): Promise<OperatorRole> {
    const runtime = new Runtime(
      testConfig({
        DATABASE_URL: database.url,
        ROLES: 'operator',
        KUBECONFIG: kubeconfigPath,
        POD_NAME: podName,
        LEADER_ELECTION: election,
        LEADER_LOCK_RENEW_MS: '200',
        LEADER_LEASE_DURATION_MS: '1500',
        LEADER_LEASE_RENEW_DEADLINE_MS: '1000',
        LEADER_LEASE_RETRY_MS: '200',
      }),
      testLogger,
    );
    await runtime.connect();
    await runtime.migrate();
    runtimes.push(runtime);
    const role = new OperatorRole({ backoff: { baseMs: 200, maxMs: 1000 } });
    stops.push(await role.start(runtime));
    return role;
  }

  const resource = (name: string) => server.get(MSS, 'mediastatsservers', NS, name) as MediaStatsServer | undefined;
  const condition = (name: string, type: Condition['type']) => resource(name)?.status?.conditions?.find((c) => c.type === type);
  const ready = (name: string) => {
    const current = resource(name);
    return condition(name, 'Ready')?.status === 'True' && current?.status?.observedGeneration === current?.metadata?.generation;
  };
  const links = () => runtimes[0]!.services.mediaServers;
  const editSpec = (name: string, change: (spec: Record<string, unknown>) => void) =>
    server.edit(MSS, 'mediastatsservers', NS, name, (object) => change(object.spec as Record<string, unknown>));
  const secret = (name: string, apiKey: string): KubeObject => ({
    metadata: { name },
    data: { apiKey: Buffer.from(apiKey).toString('base64') },
  });

  it('links a server from a MediaStatsServer and its Secret, reports status and Events, follows Secret, URL and suspend changes, archives on delete', async () => {
    await startOperator('operator-0');
    server.create('v1', 'secrets', NS, secret('jellyfin-key', 'wrong-key'));
    server.create(MSS, 'mediastatsservers', NS, {
      metadata: { name: 'living-room' },
      spec: { url: sim.url, apiKeySecretRef: { name: 'jellyfin-key' }, displayName: 'Living room' },
    });

    // A rejected key: Ready False with a reason; reachable all the same.
    await waitUntil(() => condition('living-room', 'Ready')?.reason === 'Unauthorized', 15_000);
    expect(condition('living-room', 'Reachable')).toMatchObject({ status: 'True' });
    expect(resource('living-room')?.metadata?.finalizers).toEqual(['reelstat.io/archive-link']);
    expect(await links().list()).toEqual([]);

    // Fixing the Secret is enough: no restart, no change to the resource.
    server.edit('v1', 'secrets', NS, 'jellyfin-key', (object) => {
      object.data = { apiKey: Buffer.from(sim.apiKey).toString('base64') };
    });
    await waitUntil(() => ready('living-room'), 15_000);
    const status = resource('living-room')!.status!;
    const serverId = status.serverId!;
    expect(status).toMatchObject({ observedGeneration: 1, kind: 'jellyfin', activeSessions: 0 });
    expect(status.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=True', 'Reachable=True', 'Synced=True']);
    const [link] = await links().list();
    expect(link).toMatchObject({
      id: status.serverId,
      name: 'Living room',
      managedBy: 'kubernetes',
      managedRef: 'media/living-room',
      isDefault: true,
    });
    expect(link!.apiKey).toBe(sim.apiKey);
    // Events on each transition of Ready (the second is written just after the status).
    const events = () =>
      server.store
        .list({ group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true, statusSubresource: false }, NS)
        .sort((x, y) => Number(x.metadata.resourceVersion) - Number(y.metadata.resourceVersion))
        .map((event) => `${event.type}/${event.reason}`);
    await waitUntil(() => events().length === 2);
    expect(events()).toEqual(['Warning/Unauthorized', 'Normal/Linked']);

    // A new URL (nothing answers there): generation 2 observed, Reachable False.
    editSpec('living-room', (spec) => (spec.url = 'http://127.0.0.1:9'));
    await waitUntil(() => condition('living-room', 'Reachable')?.reason === 'Unreachable', 15_000);
    expect(resource('living-room')?.status?.observedGeneration).toBe(2);
    editSpec('living-room', (spec) => (spec.url = sim.url));
    await waitUntil(() => ready('living-room'), 15_000);

    // suspend: the link stays but is neither monitored nor synced.
    editSpec('living-room', (spec) => (spec.suspend = true));
    await waitUntil(() => condition('living-room', 'Ready')?.reason === 'Suspended', 15_000);
    expect((await links().get(serverId))?.suspended).toBe(true);
    editSpec('living-room', (spec) => (spec.suspend = false));
    await waitUntil(() => ready('living-room'), 15_000);
    expect((await links().get(serverId))?.suspended).toBe(false);

    // Delete: the finalizer archives the link (its row, and so its history, stays), then lets the resource go.
    server.delete(MSS, 'mediastatsservers', NS, 'living-room');
    await waitUntil(() => resource('living-room') === undefined, 15_000);
    expect(await links().list()).toEqual([]);
    const [row] = await runtimes[0]!.db.query<{ archived_at: Date | null }>('SELECT archived_at FROM media_servers WHERE id = $1', [
      serverId,
    ]);
    expect(row?.archived_at).toBeInstanceOf(Date);
  });

  it('relists after a forced 410 on the watch and misses nothing', async () => {
    server.create('v1', 'secrets', NS, secret('key-2', sim.apiKey));
    server.create(MSS, 'mediastatsservers', NS, {
      metadata: { name: 'before-410' },
      spec: { url: sim.url, apiKeySecretRef: { name: 'key-2' } },
    });
    await waitUntil(() => ready('before-410'), 15_000);
    const lists = () => server.requests.filter((entry) => entry.verb === 'list' && entry.plural === 'mediastatsservers').length;
    const listsBefore = lists();
    server.expireWatches();
    // Created while the informer is between its 410 and its relist.
    server.create(MSS, 'mediastatsservers', NS, {
      metadata: { name: 'after-410' },
      spec: { url: sim.url, apiKeySecretRef: { name: 'key-2' } },
    });
    await waitUntil(() => ready('after-410'), 15_000);
    expect(lists()).toBeGreaterThan(listsBefore);
    for (const name of ['before-410', 'after-410']) server.delete(MSS, 'mediastatsservers', NS, name);
    await waitUntil(() => !resource('before-410') && !resource('after-410'), 15_000);
  });

  it('with two operator processes on Lease election, only the leader reconciles', async () => {
    const a = await startOperator('operator-a', 'lease');
    const b = await startOperator('operator-b', 'lease');
    expect([a.elector?.isLeader, b.elector?.isLeader]).toEqual([true, false]);
    server.create('v1', 'secrets', NS, secret('key-3', sim.apiKey));
    server.create(MSS, 'mediastatsservers', NS, {
      metadata: { name: 'shared' },
      spec: { url: sim.url, apiKeySecretRef: { name: 'key-3' } },
    });
    await waitUntil(() => ready('shared'), 15_000);
    expect(a.controller?.reconciles).toBeGreaterThan(0);
    expect(b.controller).toBeUndefined();
    const lease = server.get('coordination.k8s.io/v1', 'leases', NS, 'reelstat-operator');
    expect(lease?.spec).toMatchObject({ holderIdentity: 'operator-a' });
  });

  it('links a server from deploy/examples/mediastatsserver.yaml as applied with kubectl (URL and key replaced)', async () => {
    // `kubectl apply -f crds/` is the CRD the fake server was given; the example's two documents go in as written,
    // with only what its comment says to replace (and this test's namespace).
    for (const document of loadExampleFile()) {
      document.metadata.namespace = NS;
      if (document.kind === 'Secret') (document.stringData as Record<string, string>).apiKey = sim.apiKey;
      else (document.spec as Record<string, unknown>).url = sim.url;
      server.create(document.apiVersion as string, document.kind === 'Secret' ? 'secrets' : 'mediastatsservers', NS, document);
    }
    await waitUntil(() => ready('living-room'), 15_000);
    const serverId = resource('living-room')!.status!.serverId!;
    expect(await links().get(serverId)).toMatchObject({
      name: 'Living room',
      managedBy: 'kubernetes',
      managedRef: 'media/living-room',
      externalUrl: 'https://jellyfin.example.org',
      suspended: false,
    });
    server.delete(MSS, 'mediastatsservers', NS, 'living-room');
    await waitUntil(() => resource('living-room') === undefined, 15_000);
  });
});
