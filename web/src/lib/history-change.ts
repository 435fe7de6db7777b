import type { HistoryChangedEvent } from '@reelstat/contract';

/** Queries that show the history or what is computed from it, whatever user, library or item they are about. */
const HISTORY_WIDE = new Set(['history', 'stats', 'timeline', 'libraries']);

/** True when a query shows data the changed plays are part of. */
export function showsChangedHistory(queryKey: readonly unknown[], change: Omit<HistoryChangedEvent, 'serverId'>): boolean {
  const [kind, id] = queryKey;
  if (typeof kind !== 'string') return false;
  if (HISTORY_WIDE.has(kind)) return true;
  if (typeof id !== 'string') return false;
  if (kind === 'user') return change.userIds.includes(id);
  if (kind === 'library') return change.libraryIds.includes(id);
  if (kind === 'item' || kind === 'seasons' || kind === 'episodes') return change.itemIds.includes(id);
  return false;
}
