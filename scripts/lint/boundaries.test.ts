import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'data', '.test-results', 'coverage']);

/** One forbidden import per rule of .dependency-cruiser.cjs, each in a file of its own. */
const FORBIDDEN: Array<{ rule: string; file: string; imports: string }> = [
  { rule: 'core-imports-no-role', file: 'services/core/src/boundary-probe.ts', imports: '@reelstat/api' },
  { rule: 'roles-never-import-each-other', file: 'services/scheduler/src/boundary-probe.ts', imports: '@reelstat/dispatcher' },
  { rule: 'only-tests-import-the-composition-root', file: 'services/api/src/boundary-probe.ts', imports: '@reelstat/server' },
  { rule: 'web-imports-only-the-contract', file: 'web/src/boundary-probe.ts', imports: '@reelstat/core' },
  { rule: 'contract-imports-nothing-of-reelstat', file: 'services/contract/src/boundary-probe.ts', imports: '@reelstat/core' },
  { rule: 'production-never-imports-the-simulator', file: 'services/operator/src/boundary-probe.ts', imports: '@reelstat/jellyfin-sim' },
  { rule: 'simulator-imports-nothing-of-reelstat', file: 'services/jellyfin-sim/src/boundary-probe.ts', imports: '@reelstat/contract' },
];

describe('package boundaries (npm run lint)', () => {
  const copy = mkdtempSync(path.join(tmpdir(), 'reelstat-boundaries-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('fails on a forbidden import, naming the rule, and on nothing else', () => {
    // A temporary copy of the sources (the packages resolve through tsconfig paths, so node_modules is shared).
    cpSync(root, copy, { recursive: true, filter: (source) => !SKIPPED.has(path.basename(source)) });
    symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    for (const { file, imports } of FORBIDDEN) writeFileSync(path.join(copy, file), `import '${imports}';\n`);

    const run = spawnSync('npm', ['run', '--silent', 'lint:boundaries'], { cwd: copy, encoding: 'utf8' });
    const output = `${run.stdout}${run.stderr}`;

    expect(run.status, output).not.toBe(0);
    const violations = [...output.matchAll(/error (\S+): (\S+) → /g)].map(([, rule, from]) => `${rule} ${from}`).sort();
    expect(violations).toEqual(FORBIDDEN.map(({ rule, file }) => `${rule} ${file}`).sort());
  }, 180_000);
});
