import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderChart, type KubeObject } from './helm.js';
import { validateKubeObject } from './kube-models.js';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../deploy/examples');
const load = (name: string) => parseAllDocuments(readFileSync(path.join(examples, name), 'utf8')).map((d) => d.toJS() as KubeObject);

/** The chart rendered with the values an example passes to it: the example must describe a valid install. */
function renderWith(values: unknown) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'reelstat-values-')), 'values.yaml');
  writeFileSync(file, stringify(values));
  return renderChart([file]);
}

describe('GitOps examples in deploy/examples', () => {
  it('Flux: a GitRepository and a HelmRelease valid against the Flux schemas, whose values the chart accepts', async () => {
    const objects = load('flux.yaml');
    expect(objects.map((o) => o.kind)).toEqual(['GitRepository', 'HelmRelease']);
    for (const object of objects) await validateKubeObject(object);
    const release = objects[1]!.spec as { chart: { spec: { chart: string } }; values: unknown };
    expect(release.chart.spec.chart).toBe('charts/reelstat');
    expect(renderWith(release.values).filter((o) => o.kind === 'MediaStatsServer')).toHaveLength(1);
  });

  it('Argo CD: an Application valid against the Argo CD schema, with an existing Secret (no lookup under helm template)', async () => {
    const [application] = load('argocd.yaml');
    await validateKubeObject(application!);
    const source = (application!.spec as { source: { path: string; helm: { valuesObject: { secrets: { existingSecret: string } } } } })
      .source;
    expect(source.path).toBe('charts/reelstat');
    expect(source.helm.valuesObject.secrets.existingSecret).not.toBe('');
    const objects = renderWith(source.helm.valuesObject);
    expect(objects.find((o) => o.kind === 'Secret' && o.metadata.name.endsWith('-secrets'))).toBeUndefined();
  });
});
