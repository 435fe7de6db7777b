import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import type { KubeObject } from './object-store.js';

/** The repository's CustomResourceDefinition (crds/mediastatsservers.reelstat.io.yaml), parsed. */
export function loadCrdFile(): KubeObject {
  const file = fileURLToPath(new URL('../../../../../crds/mediastatsservers.reelstat.io.yaml', import.meta.url));
  // js-yaml, not client-node's loadYaml: that one maps keys to its model names (default → _default).
  return yaml.load(readFileSync(file, 'utf8')) as KubeObject;
}

/** The documents of deploy/examples/mediastatsserver.yaml (a Secret and a MediaStatsServer), parsed. */
export function loadExampleFile(): KubeObject[] {
  const file = fileURLToPath(new URL('../../../../../deploy/examples/mediastatsserver.yaml', import.meta.url));
  return yaml.loadAll(readFileSync(file, 'utf8')) as KubeObject[];
}
