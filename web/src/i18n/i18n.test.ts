import { describe, expect, it } from 'vitest';
import { LANGUAGES, FALLBACK_LANGUAGE, locales } from './locales';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

function interpolations(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!).sort();
}

function lookup(tree: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], tree);
}

describe('translations', () => {
  const reference = keys(locales[FALLBACK_LANGUAGE]).sort();

  it('has the seven languages with en-UK as fallback', () => {
    expect(LANGUAGES).toEqual(['en-UK', 'en-US', 'fr-FR', 'zh-CN', 'it-IT', 'ca-ES', 'de-DE']);
    expect(reference.length).toBeGreaterThan(200);
  });

  it.each(LANGUAGES.filter((lng) => lng !== FALLBACK_LANGUAGE))('%s has every key of en-UK and no other', (lng) => {
    const own = keys(locales[lng]).sort();
    expect(
      reference.filter((key) => !own.includes(key)),
      'missing keys',
    ).toEqual([]);
    expect(
      own.filter((key) => !reference.includes(key)),
      'unknown keys',
    ).toEqual([]);
  });

  it.each(LANGUAGES)('%s has non-empty texts with the same placeholders as en-UK', (lng) => {
    for (const key of reference) {
      const text = lookup(locales[lng], key);
      expect(typeof text, key).toBe('string');
      expect((text as string).trim(), key).not.toBe('');
      expect(interpolations(text as string), key).toEqual(interpolations(lookup(locales[FALLBACK_LANGUAGE], key) as string));
    }
  });

  it('translates: the other languages are not copies of English', () => {
    for (const lng of ['fr-FR', 'zh-CN', 'it-IT', 'ca-ES', 'de-DE'] as const) {
      const same = reference.filter((key) => lookup(locales[lng], key) === lookup(locales['en-UK'], key));
      expect(same.length / reference.length, lng).toBeLessThan(0.2);
    }
  });

  it('every key the code uses exists in en-UK', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(__dirname, '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.tsx?$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('.test.tsx')) files.push(full);
      }
    };
    walk(root);
    const known = new Set(reference.map((key) => key.replace(/_(one|other)$/, '')));
    const missing: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/\bt\('([a-zA-Z0-9_.]+)'/g))
        if (!known.has(match[1]!)) missing.push(`${path.relative(root, file)}: ${match[1]}`);
      for (const match of source.matchAll(/empty="([a-zA-Z0-9_.]+)"/g))
        if (!known.has(match[1]!)) missing.push(`${path.relative(root, file)}: ${match[1]}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('i18next resolves every language', () => {
  it.each(LANGUAGES)('%s translates through i18next (canonical codes such as en-UK → en-GB included)', async (lng) => {
    const { createInstance } = await import('i18next');
    const { resources } = await import('./locales');
    const instance = createInstance();
    await instance.init({ resources, lng, fallbackLng: FALLBACK_LANGUAGE });
    expect(instance.t('nav.settings')).toBe(locales[lng].nav.settings);
    expect(instance.t('common.lastDays', { count: 3 })).toBe(locales[lng].common.lastDays_other.replace('{{count}}', '3'));
  });
});
