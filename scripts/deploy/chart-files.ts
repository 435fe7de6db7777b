// `npm run chart:files`: copies what the chart ships from its canonical places into charts/reelstat
// (Helm reads files only inside the chart): the CRDs, the Grafana dashboards and the Prometheus alerts.
// `--check` exits 1 when a copy differs (the chart test runs the same check).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const chart = path.join(root, 'charts/reelstat');

/** [canonical directory, chart directory, file suffix] */
export const copiedDirectories: Array<[string, string, string]> = [
  ['crds', 'crds', '.yaml'],
  ['deploy/grafana', 'files/dashboards', '.json'],
  ['deploy/prometheus', 'files', '.yaml'],
];

export function chartCopies(): Array<{ source: string; target: string }> {
  return copiedDirectories.flatMap(([from, to, suffix]) => {
    const dir = path.join(root, from);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith(suffix))
      .map((name) => ({ source: path.join(dir, name), target: path.join(chart, to, name) }));
  });
}

/** Copies in the chart without a canonical file (a dashboard deleted from deploy/grafana, say). */
export function strayCopies(): string[] {
  const expected = new Set(chartCopies().map((copy) => copy.target));
  return copiedDirectories.flatMap(([, to, suffix]) => {
    const dir = path.join(chart, to);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith(suffix))
      .map((name) => path.join(dir, name))
      .filter((file) => !expected.has(file));
  });
}

function main() {
  const check = process.argv.includes('--check');
  const stale = chartCopies().filter(
    ({ source, target }) => !existsSync(target) || readFileSync(source, 'utf8') !== readFileSync(target, 'utf8'),
  );
  const stray = strayCopies();
  if (check) {
    if (stale.length + stray.length > 0) {
      process.stderr.write(`chart copies out of date: ${[...stale.map((c) => c.target), ...stray].join(', ')}; run npm run chart:files\n`);
      process.exit(1);
    }
    return;
  }
  for (const { source, target } of stale) {
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(source, target);
  }
  for (const file of stray) rmSync(file);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
