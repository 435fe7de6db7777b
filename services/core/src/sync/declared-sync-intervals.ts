import type { MediaServerLink } from '../media-servers/media-server-links.js';

/** Which declared interval (a MediaStatsServer's spec.sync, in minutes) schedules which task. */
const DECLARED_KEY = { PartialSyncTask: 'recentIntervalMinutes', FullSyncTask: 'fullIntervalMinutes' } as const;

/**
 * The task intervals the schedule uses: the installation's (Settings › Tasks), shortened for the sync tasks when a
 * live, unsuspended server declares a shorter one with its link (MediaStatsServer spec.sync). The sync tasks run
 * over every server, so a server asking for more frequent syncs gets them; a longer declared interval cannot
 * make one server skip a run (the others need it) and has no effect.
 */
export function scheduledIntervals(
  installation: Record<string, number>,
  links: readonly Pick<MediaServerLink, 'settings' | 'suspended'>[],
): Record<string, number> {
  const intervals = { ...installation };
  for (const [task, key] of Object.entries(DECLARED_KEY)) {
    for (const link of links) {
      if (link.suspended) continue;
      const declared = (link.settings?.sync as Record<string, unknown> | null | undefined)?.[key];
      if (typeof declared !== 'number' || !Number.isFinite(declared) || declared <= 0) continue;
      if (intervals[task] === undefined || declared < intervals[task]) intervals[task] = declared;
    }
  }
  return intervals;
}
