import { AppError, clientFor, fetchItem, TaskService, type Runtime } from '@reelstat/core';
import { fetchItemAnswer, fetchItemBody, messageAnswer, setExcludedLibrariesBody, trackedLibrariesAnswer } from '@reelstat/contract';
import { route } from '../http/api-routes.js';

/** The live server named by serverId, else the default one; archived servers are not synced. */
async function scopedServer(runtime: Runtime, serverId: string | undefined) {
  const link = serverId ? await runtime.services.mediaServers.get(serverId) : await runtime.services.mediaServers.getDefault();
  if (!link) throw AppError.conflict('No media server is linked yet');
  if (link.archived) throw AppError.conflict(`The media server ${link.name} was removed; its history is kept but it is not synced`);
  return link;
}

const startRoute = (path: string, name: 'FullSyncTask' | 'PartialSyncTask' | 'PlaybackSyncTask', summary: string) =>
  route({
    method: 'get',
    path,
    tag: 'sync',
    summary: `${summary} (409 with the reason when it is already running or excluded by a running sync)`,
    access: 'admin',
    response: messageAnswer,
    handle: async ({ runtime }) => new TaskService(runtime).start(name, 'Manual'),
  });

export const syncRoutes = [
  startRoute('/sync/beginSync', 'FullSyncTask', 'Start a full sync of every linked media server'),
  startRoute('/sync/beginPartialSync', 'PartialSyncTask', 'Start a partial sync (new and changed items only)'),
  startRoute('/sync/syncPlaybackPluginData', 'PlaybackSyncTask', 'Import the Playback Reporting plugin history'),
  route({
    method: 'post',
    path: '/sync/fetchItem',
    tag: 'sync',
    summary: 'Fetch one item missing from the database, with its parents (404 with the reason when the server does not have it)',
    access: 'admin',
    servers: 'one',
    body: fetchItemBody,
    response: fetchItemAnswer,
    handle: async ({ body, runtime, serverId }) => {
      const link = await scopedServer(runtime, serverId);
      const item = await fetchItem(runtime.db, link, clientFor(link, runtime.logger), body.itemId);
      return {
        message: `${item.Name} fetched`,
        item: { Id: item.Id, Name: item.Name, Type: item.Type, LibraryId: item.LibraryId },
      };
    },
  }),
  route({
    method: 'get',
    path: '/api/TrackedLibraries',
    tag: 'sync',
    summary: 'Libraries of the media server and whether the sync reads them',
    access: 'admin',
    servers: 'one',
    response: trackedLibrariesAnswer,
    handle: async ({ runtime, serverId }) => runtime.services.trackedLibraries.list(await scopedServer(runtime, serverId)),
  }),
  route({
    method: 'post',
    path: '/api/setExcludedLibraries',
    tag: 'sync',
    summary: 'Flip a library between tracked and excluded; answers the updated list',
    access: 'admin',
    servers: 'one',
    body: setExcludedLibrariesBody,
    response: trackedLibrariesAnswer,
    handle: async ({ body, runtime, serverId }) =>
      runtime.services.trackedLibraries.toggle(await scopedServer(runtime, serverId), body.libraryID),
  }),
];
