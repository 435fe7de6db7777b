import { HISTORY_CHANGED_EVENT, type HistoryChangedEvent, type LiveSession } from '@reelstat/contract';
import { SESSIONS_UI_EVENT, type MediaUserRef } from '@reelstat/core';

/**
 * What a viewer's socket may receive of a UI event: their own live sessions, and the history events that
 * concern their own plays (reduced to their own user id, so the items and libraries others played stay
 * unknown). Everything else (task events, restore progress, anything added later) is administrators-only,
 * so an unknown event is dropped rather than passed through. Undefined means "do not send".
 */
export function eventForViewer(event: string, payload: unknown, mediaUser: MediaUserRef | undefined): unknown {
  if (event === SESSIONS_UI_EVENT) {
    if (!Array.isArray(payload)) return undefined;
    // A viewer not linked to a media-server user has no sessions: they still get the (empty) state.
    return (payload as LiveSession[]).filter(
      (session) =>
        mediaUser !== undefined &&
        session.ServerId === mediaUser.serverId &&
        typeof session.UserId === 'string' &&
        sameUserId(session.UserId, mediaUser.userId),
    );
  }
  if (event === HISTORY_CHANGED_EVENT && mediaUser) {
    const change = payload as HistoryChangedEvent;
    if (change?.serverId !== mediaUser.serverId || !Array.isArray(change.userIds)) return undefined;
    if (!change.userIds.includes(mediaUser.userId)) return undefined;
    const own: HistoryChangedEvent = { serverId: change.serverId, userIds: [mediaUser.userId], libraryIds: [], itemIds: [] };
    return own;
  }
  return undefined;
}

/** Media servers write a user id with or without dashes and in either case; the account keeps the bare form. */
function sameUserId(a: string, b: string): boolean {
  const bare = (id: string) => id.replace(/-/g, '').toLowerCase();
  return bare(a) === bare(b);
}
