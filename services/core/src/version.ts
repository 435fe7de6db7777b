import { readFileSync } from 'node:fs';

/** The release version, read from the root package.json shipped with the build. */
export const VERSION: string = (() => {
  for (const candidate of ['../../../package.json', '../../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'reelstat' && pkg.version) return pkg.version;
    } catch {
      // try the next location (source vs dist layouts differ by one level)
    }
  }
  return '0.0.0';
})();
