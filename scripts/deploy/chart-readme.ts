// `npm run chart:readme`: writes charts/reelstat/README.md from the "# --" comments of values.yaml.
// `--check` exits 1 when the README is stale or a value has no comment (the chart test runs the same check).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const chartDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../charts/reelstat');

export interface DocumentedValue {
  key: string;
  type: string;
  default: unknown;
  description: string;
}

/**
 * Walks values.yaml line by line: a key's path comes from the indentation of the keys above it, its
 * description from the "# --" comment block right above it. A key with a comment is a documented value (its
 * children, if any, are part of its default); a key without one must be a plain map whose children all are.
 */
export function documentedValues(valuesText: string): { values: DocumentedValue[]; undocumented: string[] } {
  const tree = parse(valuesText) as Record<string, unknown>;
  const values: DocumentedValue[] = [];
  const undocumented: string[] = [];
  const stack: Array<{ indent: number; key: string; documented: boolean }> = [];
  let comment: string[] | undefined;
  for (const line of valuesText.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('# --')) {
      comment = [trimmed.slice(4).trim()];
      continue;
    }
    if (trimmed.startsWith('#') && comment) {
      comment.push(trimmed.slice(1).trim());
      continue;
    }
    const match = /^( *)([A-Za-z0-9_]+):(.*)$/.exec(line);
    if (!match) {
      if (trimmed === '') comment = undefined;
      continue;
    }
    const [, spaces = '', name = ''] = match;
    const indent = spaces.length;
    while (stack.length > 0 && (stack.at(-1)?.indent ?? -1) >= indent) stack.pop();
    if (stack.some((entry) => entry.documented)) {
      comment = undefined;
      continue; // inside a documented value's default
    }
    const key = [...stack.map((entry) => entry.key), name].join('.');
    const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);
    const isParentMap = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0;
    if (comment) {
      values.push({ key, type: typeOf(value), default: value, description: comment.join(' ') });
    } else if (!isParentMap) {
      undocumented.push(key);
    }
    stack.push({ indent, key: name, documented: comment !== undefined });
    comment = undefined;
  }
  return { values, undocumented };
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return typeof value;
}

export function renderReadme(valuesText: string, template: string): string {
  const { values } = documentedValues(valuesText);
  const rows = values.map((value) => {
    const defaultText = JSON.stringify(value.default).replace(/\|/g, '\\|');
    return `| \`${value.key}\` | ${value.type} | \`${defaultText}\` | ${value.description.replace(/\|/g, '\\|')} |`;
  });
  const table = ['| Key | Type | Default | Description |', '|---|---|---|---|', ...rows].join('\n');
  return template.replace('{{VALUES_TABLE}}', table);
}

function main() {
  const valuesText = readFileSync(path.join(chartDir, 'values.yaml'), 'utf8');
  const template = readFileSync(path.join(chartDir, 'README.md.tmpl'), 'utf8');
  const { undocumented } = documentedValues(valuesText);
  if (undocumented.length > 0) {
    process.stderr.write(`values without a "# --" comment: ${undocumented.join(', ')}\n`);
    process.exit(1);
  }
  const readme = renderReadme(valuesText, template);
  const target = path.join(chartDir, 'README.md');
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== readme) {
      process.stderr.write('charts/reelstat/README.md is stale: run npm run chart:readme\n');
      process.exit(1);
    }
    return;
  }
  writeFileSync(target, readme);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
