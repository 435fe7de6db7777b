import { AppError, type MediaUserRef, type Runtime } from '@reelstat/core';
import type { RouteContext } from '../http/api-routes.js';

/**
 * What the 'own-plays' routes (http/route-access.ts) give a viewer about an item or a library: its metadata,
 * their own plays of it, and everyone's figures only when the administrator shares the server's statistics.
 * A file's path on the server is not theirs to see: it is left out.
 */
type Viewer = NonNullable<RouteContext<unknown, unknown, unknown>['viewer']>;

/** The viewer's media-server user id (their plays are the ones they see). */
export function ownUserId(viewer: Viewer): string {
  return ownUser(viewer.mediaUser).userId;
}

function ownUser(mediaUser: MediaUserRef | undefined): MediaUserRef {
  if (!mediaUser) throw AppError.forbidden('Your sign-in is not linked to a media-server user');
  return mediaUser;
}

export async function sharesServerStats(runtime: Runtime): Promise<boolean> {
  return Boolean(await runtime.services.settings.get('VIEWERS_SEE_SERVER_STATS'));
}

interface ItemFigures {
  Id: string;
  FileName: string | null;
  Path: string | null;
  times_played: number;
  total_play_time: number;
}

/** Items as a viewer sees them: no path on the server; their own plays unless the server's are shared. */
export async function itemsForViewer<T extends ItemFigures>(runtime: Runtime, viewer: Viewer, items: T[], serverId?: string): Promise<T[]> {
  const userId = ownUserId(viewer);
  const shared = await sharesServerStats(runtime);
  const own = shared
    ? undefined
    : await runtime.services.library.ownPlays(
        userId,
        'item',
        items.map((item) => item.Id),
        serverId,
      );
  return items.map((item) => ({
    ...item,
    FileName: null,
    Path: null,
    ...(own ? { times_played: own.get(item.Id)?.plays ?? 0, total_play_time: own.get(item.Id)?.seconds ?? 0 } : {}),
  }));
}

interface LibraryFigures {
  Id: string;
  Plays: number;
  total_playback_duration: number;
  ItemName: string | null;
  LastActivity: unknown;
}

/**
 * A library as a viewer sees it: unless the server's statistics are shared, their own plays and no "last
 * played" (it would tell what someone else watched, and when).
 */
export async function libraryForViewer<T extends LibraryFigures>(
  runtime: Runtime,
  viewer: Viewer,
  library: T,
  serverId?: string,
): Promise<T> {
  const userId = ownUserId(viewer);
  if (await sharesServerStats(runtime)) return library;
  const own = (await runtime.services.library.ownPlays(userId, 'library', [library.Id], serverId)).get(library.Id);
  return { ...library, Plays: own?.plays ?? 0, total_playback_duration: own?.seconds ?? 0, ItemName: null, LastActivity: null };
}
