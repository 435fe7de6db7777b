import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { CoordinationV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../test-services.js';
import { FakeKubeApiServer } from './fake-kube-api-server.js';
import { loadCrdFile } from './crd-file.js';

const mss = { group: 'reelstat.io', version: 'v1alpha1', plural: 'mediastatsservers', namespace: 'media' };
const resource = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'reelstat.io/v1alpha1',
  kind: 'MediaStatsServer',
  metadata: { name },
  spec: { url: 'http://jellyfin:8096', apiKeySecretRef: { name: 'jellyfin' }, ...spec },
});

describe('FakeKubeApiServer', () => {
  let server: FakeKubeApiServer;
  let kc: KubeConfig;
  let custom: CustomObjectsApi;

  beforeEach(async () => {
    server = new FakeKubeApiServer({ bookmarkIntervalMs: 50 });
    await server.start();
    server.applyCrd(loadCrdFile());
    kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig('media'));
    custom = kc.makeApiClient(CustomObjectsApi);
  });
  afterEach(async () => {
    await server.stop();
  });

  it('answers 401 without the bearer token', async () => {
    const response = await fetch(`${server.url}/api/v1/namespaces/media/secrets`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
    expect(server.requests.at(-1)).toMatchObject({ status: 401, plural: 'secrets' });
  });

  it('validates custom resources against the CRD schema and fills defaults', async () => {
    const created = await custom.createNamespacedCustomObject({ ...mss, body: resource('one') });
    expect(created.spec).toMatchObject({ kind: 'auto', suspend: false, apiKeySecretRef: { name: 'jellyfin', key: 'apiKey' } });
    expect(created.metadata).toMatchObject({ generation: 1, namespace: 'media' });
    await expect(custom.createNamespacedCustomObject({ ...mss, body: resource('two', { kind: 'plex' }) })).rejects.toMatchObject({
      code: 422,
    });
    await expect(
      custom.createNamespacedCustomObject({ ...mss, body: resource('three', { activityMonitor: { activeIntervalSeconds: 0 } }) }),
    ).rejects.toMatchObject({ code: 422 });
    await expect(custom.createNamespacedCustomObject({ ...mss, body: resource('one') })).rejects.toMatchObject({ code: 409 });
  });

  // The CRD's CEL rules (x-kubernetes-validations), evaluated as the API server does: one bad resource per
  // rule gets 422 with the rule's message, and the same resource with the value fixed is accepted.
  it.each([
    {
      rule: 'tracked and untracked libraries are disjoint',
      bad: { trackedLibraries: ['films', 'music'], untrackedLibraries: ['music'] },
      good: { trackedLibraries: ['films'], untrackedLibraries: ['music'] },
      message: '<root>.spec: Invalid value: "object": a library cannot be both tracked and untracked',
    },
    {
      rule: 'url is http or https',
      bad: { url: 'ftp://jellyfin:8096' },
      good: { url: 'https://jellyfin:8096' },
      message: '<root>.spec.url: Invalid value: "string": url must start with http:// or https://',
    },
    {
      rule: 'externalUrl is http or https',
      bad: { externalUrl: 'jellyfin.example.com' },
      good: { externalUrl: 'https://jellyfin.example.com' },
      message: '<root>.spec.externalUrl: Invalid value: "string": externalUrl must start with http:// or https://',
    },
    {
      // The idle interval's default (5) is filled in before the rules run, as on a real API server.
      rule: 'the active poll interval does not exceed the idle one',
      bad: { activityMonitor: { activeIntervalSeconds: 10 } },
      good: { activityMonitor: { activeIntervalSeconds: 10, idleIntervalSeconds: 10 } },
      message: '<root>.spec.activityMonitor: Invalid value: "object": activeIntervalSeconds must not exceed idleIntervalSeconds',
    },
  ])('refuses a resource breaking the CEL rule "$rule" with 422', async ({ bad, good, message }) => {
    const refused = await custom.createNamespacedCustomObject({ ...mss, body: resource('bad', bad) }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 422 });
    expect((JSON.parse((refused as { body: string }).body) as { message: string }).message).toContain(message);
    expect(server.get('reelstat.io/v1alpha1', 'mediastatsservers', 'media', 'bad')).toBeUndefined();
    const created = await custom.createNamespacedCustomObject({ ...mss, body: resource('good', good) });
    expect(created.spec).toMatchObject(good);
    // An update that breaks the rule is refused the same way and leaves the stored object as it was.
    const update = await custom
      .replaceNamespacedCustomObject({ ...mss, name: 'good', body: { ...created, spec: { ...created.spec, ...bad } } })
      .catch((error: unknown) => error);
    expect(update).toMatchObject({ code: 422 });
    expect(server.get('reelstat.io/v1alpha1', 'mediastatsservers', 'media', 'good')?.spec).toMatchObject(good);
  });

  it('refuses a stale resourceVersion with 409 and bumps generation on spec changes only', async () => {
    const created = await custom.createNamespacedCustomObject({ ...mss, body: resource('one') });
    const changed = await custom.replaceNamespacedCustomObject({
      ...mss,
      name: 'one',
      body: { ...created, spec: { ...created.spec, url: 'http://other:8096' } },
    });
    expect(changed.metadata.generation).toBe(2);
    // The old resourceVersion is stale now.
    await expect(
      custom.replaceNamespacedCustomObject({ ...mss, name: 'one', body: { ...created, spec: { ...created.spec, suspend: true } } }),
    ).rejects.toMatchObject({ code: 409 });
    // Status goes through the subresource, leaves generation alone and is ignored on the main endpoint.
    const withStatus = await custom.replaceNamespacedCustomObjectStatus({
      ...mss,
      name: 'one',
      body: { ...changed, spec: { ...changed.spec, url: 'http://ignored' }, status: { activeSessions: 2 } },
    });
    expect(withStatus.metadata.generation).toBe(2);
    expect(withStatus.spec.url).toBe('http://other:8096');
    expect(withStatus.status).toEqual({ activeSessions: 2 });
    const labelled = await custom.replaceNamespacedCustomObject({
      ...mss,
      name: 'one',
      body: { ...withStatus, metadata: { ...withStatus.metadata, labels: { team: 'a' } }, status: { activeSessions: 99 } },
    });
    expect(labelled.metadata.generation).toBe(2);
    expect(labelled.status).toEqual({ activeSessions: 2 });
  });

  it('keeps an object with finalizers until the last one is removed', async () => {
    const created = await custom.createNamespacedCustomObject({
      ...mss,
      body: { ...resource('one'), metadata: { name: 'one', finalizers: ['reelstat.io/archive'] } },
    });
    await custom.deleteNamespacedCustomObject({ ...mss, name: 'one' });
    const deleting = await custom.getNamespacedCustomObject({ ...mss, name: 'one' });
    expect(deleting.metadata.deletionTimestamp).toBeTruthy();
    expect(deleting.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
    await custom.replaceNamespacedCustomObject({
      ...mss,
      name: 'one',
      body: { ...deleting, metadata: { ...deleting.metadata, finalizers: [] } },
    });
    await expect(custom.getNamespacedCustomObject({ ...mss, name: 'one' })).rejects.toMatchObject({ code: 404 });
  });

  it('streams watch events to an informer, sends bookmarks, and makes it relist after a 410', async () => {
    const informer = makeInformer<KubernetesObject>(
      kc,
      '/apis/reelstat.io/v1alpha1/namespaces/media/mediastatsservers',
      () => custom.listNamespacedCustomObject(mss) as never,
    );
    const seen: string[] = [];
    informer.on('add', (object) => seen.push(`add:${object.metadata?.name}`));
    informer.on('update', (object) => seen.push(`update:${object.metadata?.name}`));
    informer.on('delete', (object) => seen.push(`delete:${object.metadata?.name}`));
    await custom.createNamespacedCustomObject({ ...mss, body: resource('before') });
    await informer.start();
    await custom.createNamespacedCustomObject({ ...mss, body: resource('during') });
    await waitUntil(() => seen.includes('add:during'));

    const listsBefore = server.requests.filter((entry) => entry.verb === 'list').length;
    server.expireWatches();
    // Changes while the informer relists must not be lost.
    server.delete('reelstat.io/v1alpha1', 'mediastatsservers', 'media', 'before');
    server.create('reelstat.io/v1alpha1', 'mediastatsservers', 'media', resource('after'));
    await waitUntil(() => seen.includes('add:after') && seen.includes('delete:before'));
    expect(server.requests.filter((entry) => entry.verb === 'list').length).toBeGreaterThan(listsBefore);
    expect(
      informer
        .list()
        .map((object) => object.metadata?.name)
        .sort(),
    ).toEqual(['after', 'during']);
    await informer.stop();

    // Bookmarks for a watch that asks for them, with the current resourceVersion.
    const response = await fetch(
      `${server.url}/apis/reelstat.io/v1alpha1/namespaces/media/mediastatsservers?watch=true&allowWatchBookmarks=true&resourceVersion=${server.store.resourceVersion}`,
      {
        headers: { authorization: `Bearer ${server.token}` },
      },
    );
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    const event = JSON.parse(new TextDecoder().decode(value).split('\n')[0]!);
    expect(event).toMatchObject({ type: 'BOOKMARK', object: { metadata: { resourceVersion: String(server.store.resourceVersion) } } });
    await reader.cancel();

    // Resuming from a compacted resourceVersion: 410 Gone as an ERROR event.
    const stale = await fetch(`${server.url}/apis/reelstat.io/v1alpha1/namespaces/media/mediastatsservers?watch=true&resourceVersion=1`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(JSON.parse((await stale.text()).trim())).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
  });

  it('serves Leases and Secrets through the typed clients, with conflicts on stale writes', async () => {
    const leases = kc.makeApiClient(CoordinationV1Api);
    const core = kc.makeApiClient(CoreV1Api);
    const lease = await leases.createNamespacedLease({
      namespace: 'media',
      body: {
        metadata: { name: 'scheduler' },
        spec: { holderIdentity: 'pod-a', leaseDurationSeconds: 15, renewTime: new Date() as never },
      },
    });
    expect(lease.spec?.holderIdentity).toBe('pod-a');
    await leases.replaceNamespacedLease({
      name: 'scheduler',
      namespace: 'media',
      body: { ...lease, spec: { ...lease.spec, holderIdentity: 'pod-b' } },
    });
    await expect(
      leases.replaceNamespacedLease({
        name: 'scheduler',
        namespace: 'media',
        body: { ...lease, spec: { ...lease.spec, holderIdentity: 'pod-c' } },
      }),
    ).rejects.toMatchObject({ code: 409 });
    await core.createNamespacedSecret({ namespace: 'media', body: { metadata: { name: 'jellyfin' }, stringData: { apiKey: 'x' } } });
    const secret = await core.readNamespacedSecret({ name: 'jellyfin', namespace: 'media' });
    expect(secret.metadata?.name).toBe('jellyfin');
    await expect(core.readNamespacedSecret({ name: 'missing', namespace: 'media' })).rejects.toMatchObject({ code: 404 });
  });

  it('accepts the CRD and the examples in deploy/examples as kubectl apply would send them', async () => {
    const fresh = new FakeKubeApiServer();
    await fresh.start();
    const post = (path: string, body: unknown) =>
      fetch(`${fresh.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fresh.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', loadCrdFile())).status).toBe(201);
    const examples = yaml.loadAll(
      readFileSync(new URL('../../../../../deploy/examples/mediastatsserver.yaml', import.meta.url), 'utf8'),
    ) as Array<{
      kind: string;
      metadata: { namespace: string };
    }>;
    const paths: Record<string, string> = {
      Secret: '/api/v1/namespaces/reelstat/secrets',
      MediaStatsServer: '/apis/reelstat.io/v1alpha1/namespaces/reelstat/mediastatsservers',
    };
    for (const example of examples) expect((await post(paths[example.kind]!, example)).status, example.kind).toBe(201);
    await fresh.stop();
  });
});
