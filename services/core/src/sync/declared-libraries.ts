/**
 * Library tracking declared with a link (a MediaStatsServer's trackedLibraries / untrackedLibraries, stored in
 * the link's settings). Declared lists win over the Library settings screen: with trackedLibraries, exactly
 * those libraries are read; with untrackedLibraries, those are never read. Entries are library ids (the CRD's
 * wording); a library's name matches too, since names are what administrators see.
 */
export interface DeclaredLibraries {
  trackedLibraries?: unknown;
  untrackedLibraries?: unknown;
}

function listOf(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : undefined;
}

/** Whether the declaration tracks this library; undefined when it says nothing about it (the screen decides). */
export function declaredTracking(settings: DeclaredLibraries | undefined, library: { id: string; name: string }): boolean | undefined {
  const named = (list: string[]) => list.includes(library.id) || list.includes(library.name);
  const tracked = listOf(settings?.trackedLibraries);
  const untracked = listOf(settings?.untrackedLibraries);
  if (untracked && named(untracked)) return false;
  if (tracked && tracked.length > 0) return named(tracked);
  return undefined;
}
