import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chartDir, helm, renderChart, type KubeObject } from './helm.js';
import { validateKubeObject } from './kube-models.js';

const ciValues = readdirSync(path.join(chartDir, 'ci'))
  .filter((name) => name.endsWith('-values.yaml'))
  .sort();
const ciFile = (name: string) => path.join(chartDir, 'ci', name);

interface Container {
  name: string;
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] } };
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: Record<string, unknown> & { seccompProfile?: { type: string } };
  automountServiceAccountToken?: boolean;
  terminationGracePeriodSeconds?: number;
  serviceAccountName?: string;
  volumes?: Array<{ name: string; secret?: { secretName: string } }>;
}
interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

function podSpecOf(object: KubeObject): PodSpec | undefined {
  if (object.kind === 'Pod') return object.spec as PodSpec;
  if (object.kind === 'Deployment' || object.kind === 'StatefulSet') {
    return (object.spec as { template: { spec: PodSpec } }).template.spec;
  }
  return undefined;
}
const find = (objects: KubeObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const rulesOf = (objects: KubeObject[], name: string) => (find(objects, 'Role', name)?.rules ?? []) as PolicyRule[];

describe('Helm chart charts/reelstat', () => {
  const rendered = new Map<string, KubeObject[]>();
  beforeAll(() => {
    rendered.set('defaults', renderChart());
    for (const file of ciValues) rendered.set(file, renderChart([ciFile(file)]));
  });
  const cases = () => [...rendered.entries()];

  it('has the chart-testing values files: minimal, external databases, bundled, HA, everything on', () => {
    expect(ciValues).toEqual([
      'bundled-values.yaml',
      'everything-values.yaml',
      'external-databases-values.yaml',
      'ha-values.yaml',
      'minimal-values.yaml',
    ]);
  });

  it('passes helm lint --strict with the defaults and with every ci values file', () => {
    for (const file of [undefined, ...ciValues]) {
      const result = helm(['lint', '--strict', chartDir, ...(file ? ['--values', ciFile(file)] : [])]);
      expect(result.output, file).toContain('0 chart(s) failed');
      expect(result.status, result.output).toBe(0);
    }
  });

  it('renders only objects valid against the Kubernetes schemas (kubernetes-models)', async () => {
    for (const [values, objects] of cases()) {
      for (const object of objects) {
        if (object.apiVersion === 'reelstat.io/v1alpha1' || object.apiVersion === 'postgresql.cnpg.io/v1') continue; // below
        await expect(validateKubeObject(object), `${values}: ${object.kind} ${object.metadata.name}`).resolves.toBeUndefined();
      }
    }
  });

  it('renders MediaStatsServers and the CloudNativePG Cluster with the fields their operators require', () => {
    const everything = rendered.get('everything-values.yaml')!;
    const servers = everything.filter((o) => o.kind === 'MediaStatsServer');
    expect(servers.map((s) => s.metadata.name)).toEqual(['jellyfin', 'emby']);
    for (const server of servers) {
      expect(server.apiVersion).toBe('reelstat.io/v1alpha1');
      expect(server.spec).toMatchObject({ url: expect.stringMatching(/^http:\/\//), apiKeySecretRef: { name: expect.any(String) } });
    }
    const cluster = find(rendered.get('ha-values.yaml')!, 'Cluster', 'release-reelstat-pg');
    expect(cluster?.spec).toEqual({
      instances: 3,
      bootstrap: { initdb: { database: 'reelstat', owner: 'reelstat' } },
      storage: { size: '8Gi' },
    });
  });

  it('runs every container non-root with a read-only root filesystem, no capabilities and seccomp RuntimeDefault', () => {
    let containers = 0;
    for (const [values, objects] of cases()) {
      for (const object of objects) {
        const pod = podSpecOf(object);
        if (!pod) continue;
        expect(pod.securityContext, `${values}: ${object.metadata.name}`).toMatchObject({
          runAsNonRoot: true,
          seccompProfile: { type: 'RuntimeDefault' },
        });
        for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
          containers += 1;
          expect(container.securityContext, `${values}: ${object.metadata.name}/${container.name}`).toMatchObject({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
            capabilities: { drop: ['ALL'] },
          });
        }
      }
    }
    expect(containers).toBeGreaterThan(30); // the loop did look at the pods of every values file
  });

  it('runs 2 scheduler replicas and every role with probes on /healthz and /readyz', () => {
    for (const [values, objects] of cases()) {
      const scheduler = find(objects, 'Deployment', 'release-reelstat-scheduler');
      expect((scheduler?.spec as { replicas: number }).replicas, values).toBe(2);
      for (const role of objects.filter((o) => o.kind === 'Deployment')) {
        const container = podSpecOf(role)!.containers[0] as Container & Record<string, { httpGet?: { path: string } }>;
        expect(container.livenessProbe?.httpGet?.path, role.metadata.name).toBe('/healthz');
        expect(container.readinessProbe?.httpGet?.path, role.metadata.name).toBe('/readyz');
      }
    }
  });

  it('grants each role only the Kubernetes rights it uses', () => {
    const objects = rendered.get('everything-values.yaml')!;
    expect(objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding')).toEqual([]);
    for (const role of ['api', 'dispatcher']) {
      const pod = podSpecOf(find(objects, 'Deployment', `release-reelstat-${role}`)!)!;
      expect(pod.automountServiceAccountToken, role).toBe(false);
      expect(pod.serviceAccountName).toBe(`release-reelstat-${role}`);
      expect(find(objects, 'Role', `release-reelstat-${role}`), role).toBeUndefined();
      const bindings = objects.filter((o) => o.kind === 'RoleBinding' && JSON.stringify(o.subjects).includes(`release-reelstat-${role}"`));
      expect(bindings, role).toEqual([]);
    }
    expect(rulesOf(objects, 'release-reelstat-scheduler')).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    ]);
    const operatorRoles = objects.filter((o) => o.kind === 'Role' && o.metadata.name === 'release-reelstat-operator');
    expect(operatorRoles.map((r) => r.metadata.namespace).sort()).toEqual(['default', 'media']);
    for (const role of operatorRoles) {
      const rules = role.rules as PolicyRule[];
      expect(rules).toContainEqual({
        apiGroups: ['reelstat.io'],
        resources: ['mediastatsservers'],
        verbs: ['get', 'list', 'watch', 'update', 'patch'],
      });
      expect(rules).toContainEqual({
        apiGroups: ['reelstat.io'],
        resources: ['mediastatsservers/status'],
        verbs: ['get', 'update', 'patch'],
      });
      const secrets = rules.filter((rule) => rule.resources.includes('secrets'));
      expect(secrets).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }]);
    }
    for (const rule of objects.filter((o) => o.kind === 'Role').flatMap((r) => r.rules as PolicyRule[])) {
      expect(rule.verbs).not.toContain('*');
      expect(rule.verbs).not.toContain('delete');
      expect(rule.resources).not.toContain('*');
    }
    // Without the operator, no role may read Secrets at all.
    const withoutOperator = objects.filter((o) => o.kind === 'Role' && o.metadata.name !== 'release-reelstat-operator');
    expect(withoutOperator.flatMap((r) => r.rules as PolicyRule[]).some((rule) => rule.resources.includes('secrets'))).toBe(false);
  });

  it('never puts a secret in a plain value: passwords, keys and URLs come from Secrets', () => {
    const external = rendered.get('external-databases-values.yaml')!;
    const password = 'change-me';
    for (const object of external.filter((o) => o.kind !== 'Secret')) {
      expect(JSON.stringify(object), `${object.kind} ${object.metadata.name}`).not.toContain(password);
    }
    for (const [values, objects] of cases()) {
      for (const object of objects) {
        for (const container of podSpecOf(object)?.containers ?? []) {
          for (const variable of container.env ?? []) {
            if (!/PASSWORD|SECRET|KEY$|DATABASE_URL|REDIS_URL/.test(variable.name) || variable.name.endsWith('_FILE')) continue;
            const composed = variable.value !== undefined && /\$\([A-Z_]+\)/.test(variable.value);
            expect(
              variable.valueFrom !== undefined || composed,
              `${values}: ${object.metadata.name}/${container.name} ${variable.name}`,
            ).toBe(true);
          }
        }
      }
    }
  });

  it('references only Secrets it renders, or the existing Secrets named in values', () => {
    for (const [values, objects] of cases()) {
      const secrets = new Set(objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name));
      for (const name of ['reelstat-app-secrets', 'reelstat-redis', 'release-reelstat-pg-app', 'release-reelstat-test-ready'])
        secrets.add(name);
      for (const object of objects) {
        const pod = podSpecOf(object);
        if (!pod) continue;
        const names = [
          ...(pod.volumes ?? []).flatMap((volume) => (volume.secret ? [volume.secret.secretName] : [])),
          ...pod.containers.flatMap((c) =>
            (c.env ?? []).flatMap((v) => {
              const ref = (v.valueFrom as { secretKeyRef?: { name: string } } | undefined)?.secretKeyRef;
              return ref ? [ref.name] : [];
            }),
          ),
        ];
        for (const name of names) expect(secrets.has(name), `${values}: ${object.metadata.name} uses Secret ${name}`).toBe(true);
      }
    }
  });

  it('generates the app secrets (at least 32 characters) into a Secret kept on uninstall', () => {
    const secret = find(rendered.get('defaults')!, 'Secret', 'release-reelstat-secrets')!;
    expect(secret.metadata.annotations).toEqual({ 'helm.sh/resource-policy': 'keep' });
    expect(Object.keys(secret.data as object).sort()).toEqual(['encryption-key', 'jwt-secret']);
    for (const value of Object.values(secret.data as Record<string, string>))
      expect(Buffer.from(value, 'base64').length).toBeGreaterThanOrEqual(32);
  });

  it('connects every Service, PDB and HPA to a workload it renders', () => {
    for (const [values, objects] of cases()) {
      const workloads = objects.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet');
      const podLabels = workloads.map(
        (w) => (w.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels,
      );
      const selects = (selector: Record<string, string>) =>
        podLabels.some((labels) => Object.entries(selector).every(([k, v]) => labels[k] === v));
      for (const service of objects.filter((o) => o.kind === 'Service')) {
        expect(
          selects((service.spec as { selector: Record<string, string> }).selector),
          `${values}: Service ${service.metadata.name}`,
        ).toBe(true);
      }
      for (const pdb of objects.filter((o) => o.kind === 'PodDisruptionBudget')) {
        expect(
          selects((pdb.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels),
          `${values}: PDB ${pdb.metadata.name}`,
        ).toBe(true);
      }
      for (const hpa of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
        const target = (hpa.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name;
        expect(find(objects, 'Deployment', target), values).toBeDefined();
        expect((find(objects, 'Deployment', target)!.spec as { replicas?: number }).replicas, 'the HPA owns replicas').toBeUndefined();
      }
    }
  });

  it('renders a working suite with the defaults: every role, bundled databases, the test pod', () => {
    const objects = rendered.get('defaults')!;
    const names = (kind: string) =>
      objects
        .filter((o) => o.kind === kind)
        .map((o) => o.metadata.name)
        .sort();
    expect(names('Deployment')).toEqual([
      'release-reelstat-api',
      'release-reelstat-dispatcher',
      'release-reelstat-operator',
      'release-reelstat-scheduler',
    ]);
    expect(names('StatefulSet')).toEqual(['release-reelstat-postgresql', 'release-reelstat-redis']);
    const api = podSpecOf(find(objects, 'Deployment', 'release-reelstat-api')!)!.containers[0]!;
    const env = Object.fromEntries((api.env ?? []).map((v) => [v.name, v.value]));
    expect(env.DATABASE_URL).toBe('postgresql://reelstat:$(POSTGRES_PASSWORD)@release-reelstat-postgresql:5432/reelstat');
    expect(env.REDIS_URL).toBe('redis://:$(REDIS_PASSWORD)@release-reelstat-redis:6379');
    const order = (api.env ?? []).map((v) => v.name);
    expect(order.indexOf('POSTGRES_PASSWORD')).toBeLessThan(order.indexOf('DATABASE_URL')); // $(VAR) expands only earlier variables
    expect((api as unknown as { args: string[] }).args).toEqual(['--roles', 'api']);
    // Graceful drain on the api replicas only, well inside the pod's grace period.
    expect(env.SHUTDOWN_DRAIN_MS).toBe('5000');
    expect(podSpecOf(find(objects, 'Deployment', 'release-reelstat-api')!)!.terminationGracePeriodSeconds).toBeGreaterThan(5 + 15);
    const scheduler = podSpecOf(find(objects, 'Deployment', 'release-reelstat-scheduler')!)!.containers[0]!;
    expect((scheduler.env ?? []).map((v) => v.name)).not.toContain('SHUTDOWN_DRAIN_MS');
    const test = objects.find((o) => o.kind === 'Pod')!;
    expect(test.metadata.annotations?.['helm.sh/hook']).toBe('test');
    expect(JSON.stringify(test.spec)).toContain('http://release-reelstat:80/readyz');
  });

  it('rejects values of the wrong type or unknown keys (values.schema.json)', () => {
    expect(() => renderChart([], ['api.replicas=two'])).toThrow(/api\.replicas: Invalid type\. Expected: integer/);
    expect(() => renderChart([], ['scheduler.replicas=true'])).toThrow(/scheduler\.replicas: Invalid type/);
    expect(() => renderChart([], ['api.replica=3'])).toThrow(/Additional property replica is not allowed/);
    expect(() => renderChart([], ['postgresql.mode=sqlite'])).toThrow(/postgresql\.mode/);
    expect(() => renderChart([], ['postgresql.external.url=mysql://x'])).toThrow(/postgresql\.external\.url/);
  });
});
