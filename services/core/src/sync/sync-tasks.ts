/** The sync tasks: each runs over the linked media servers (all, or the schedule's due ones), one after the other. */
import type { MediaServerLink } from '../media-servers/media-server-links.js';
import type { TaskContext, TaskDefinition } from '../tasks/task-types.js';
import { LibrarySync } from './library-sync.js';
import { publishHistoryChange } from '../history/history-events.js';
import { importPlaybackReporting } from './playback-reporting-import.js';
import { clientFor, type SyncReporter } from './sync-context.js';
import { recordServerSyncStart, type ServerSyncTask } from './declared-sync-intervals.js';

/** Full and partial sync write the same rows: they share a group, so they never run at the same time. */
export const LIBRARY_SYNC_GROUP = 'task-library-sync';

/**
 * Runs the work for each server of the run (every live server, or the schedule's due ones), noting for a
 * scheduled sync task when it started for each, so each server keeps its own interval (see dueServers).
 */
async function eachServer(
  context: TaskContext,
  work: (link: MediaServerLink, reporter: SyncReporter) => Promise<string>,
  task?: ServerSyncTask,
): Promise<string> {
  const all = await context.runtime.services.mediaServers.list();
  if (all.length === 0) throw new Error('No media server is linked yet');
  const only = context.serverIds ? new Set(context.serverIds) : undefined;
  // Suspended links (a MediaStatsServer with suspend: true) are not synced.
  const links = all.filter((link) => !link.suspended && (!only || only.has(link.id)));
  const done: string[] = [];
  const failed: string[] = [];
  for (const [index, link] of links.entries()) {
    context.signal.throwIfAborted();
    const reporter: SyncReporter = {
      signal: context.signal,
      log: context.log,
      progress: (fraction) => context.progress.report(((index + Math.max(0, Math.min(1, fraction))) / links.length) * 100),
    };
    try {
      if (task) await recordServerSyncStart(context.runtime.db, link.id, task, new Date());
      done.push(await work(link, reporter));
    } catch (error) {
      if (context.signal.aborted) throw error;
      // One server down must not keep the others unsynced; the run still ends Failed.
      const message = `${link.name}: ${(error as Error).message}`;
      failed.push(message);
      await context.log.error(message);
    }
  }
  if (failed.length) throw new Error(failed.join('; '));
  return done.join('; ');
}

export const fullSyncTask: TaskDefinition = {
  name: 'FullSyncTask',
  type: 'JOB',
  scheduled: true,
  group: LIBRARY_SYNC_GROUP,
  requiresMediaServer: true,
  run: (context) =>
    eachServer(
      context,
      async (link, reporter) => {
        await context.log.step(`Full sync of ${link.name} (${link.kind})`);
        const s = await new LibrarySync(context.runtime.db, link, clientFor(link, context.runtime.logger), reporter).full();
        return `${s.server}: ${s.itemsListed} items in ${s.libraries} libraries, ${s.itemsWritten} written, ${s.archived} archived, ${s.users} users`;
      },
      'FullSyncTask',
    ),
};

export const partialSyncTask: TaskDefinition = {
  name: 'PartialSyncTask',
  type: 'JOB',
  scheduled: true,
  group: LIBRARY_SYNC_GROUP,
  requiresMediaServer: true,
  run: (context) =>
    eachServer(
      context,
      async (link, reporter) => {
        await context.log.step(`Partial sync of ${link.name} (${link.kind})`);
        const s = await new LibrarySync(context.runtime.db, link, clientFor(link, context.runtime.logger), reporter).partial();
        return `${s.server}: ${s.itemsWritten} new or changed items, ${s.users} users`;
      },
      'PartialSyncTask',
    ),
};

export const playbackSyncTask: TaskDefinition = {
  name: 'PlaybackSyncTask',
  type: 'IMPORT',
  scheduled: false,
  group: 'task-playback-sync',
  requiresMediaServer: true,
  run: (context) =>
    eachServer(context, async (link, reporter) => {
      await context.log.step(`Playback Reporting import from ${link.name} (${link.kind})`);
      const s = await importPlaybackReporting(context.runtime.db, link, clientFor(link, context.runtime.logger), reporter);
      await publishHistoryChange(context.runtime.bus, s.change, context.runtime.logger);
      return `${s.server}: ${s.read} plugin rows read, ${s.imported} plays added`;
    }),
};
