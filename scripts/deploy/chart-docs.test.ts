import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartDir, documentedValues, renderReadme } from './chart-readme.js';
import { chartCopies, strayCopies } from './chart-files.js';

describe('the chart README, generated from the values comments', () => {
  const valuesText = readFileSync(path.join(chartDir, 'values.yaml'), 'utf8');

  it('documents every value of values.yaml', () => {
    const { values, undocumented } = documentedValues(valuesText);
    expect(undocumented).toEqual([]);
    expect(values.map((v) => v.key)).toContain('scheduler.replicas');
  });

  it('is up to date (npm run chart:readme)', () => {
    const template = readFileSync(path.join(chartDir, 'README.md.tmpl'), 'utf8');
    expect(readFileSync(path.join(chartDir, 'README.md'), 'utf8')).toBe(renderReadme(valuesText, template));
  });

  it('finds a value without a comment, and keeps a documented map whole', () => {
    const text = ['a:', '  # -- documented', '  b: 1', '  c: x', '# -- a map', 'd:', '  e: 2', ''].join('\n');
    const { values, undocumented } = documentedValues(text);
    expect(undocumented).toEqual(['a.c']);
    expect(values).toEqual([
      { key: 'a.b', type: 'int', default: 1, description: 'documented' },
      { key: 'd', type: 'object', default: { e: 2 }, description: 'a map' },
    ]);
  });
});

describe('files the chart ships', () => {
  it('are identical copies of the canonical CRDs, dashboards and alerts (npm run chart:files)', () => {
    const copies = chartCopies();
    expect(copies.length).toBeGreaterThan(0);
    for (const { source, target } of copies) expect(readFileSync(target, 'utf8'), target).toBe(readFileSync(source, 'utf8'));
    expect(strayCopies()).toEqual([]);
  });
});
