import { useEffect, useRef } from 'react';
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import type { HistoryChangedEvent } from '@reelstat/contract';
import { showsChangedHistory } from '../lib/history-change';
import { useSocketEvent } from './socket';

/** Events closer together than this are folded into one refresh (a busy server commits every poll). */
const FOLD_MS = 300;

function invalidate(queryClient: QueryClient, change: Omit<HistoryChangedEvent, 'serverId'>): void {
  void queryClient.invalidateQueries({ predicate: (query: Query) => showsChangedHistory(query.queryKey, change) });
}

/**
 * Keeps open pages in step with the history: when the server says plays were written, extended or deleted
 * (the 'history' socket event), the Activity table, the Home cards and the user, library and item pages the
 * plays belong to refetch. The pages' own polling stays as the fallback when the socket is down.
 */
export function useHistoryRefresh(): void {
  const queryClient = useQueryClient();
  const pending = useRef<{ userIds: Set<string>; libraryIds: Set<string>; itemIds: Set<string> } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useSocketEvent<HistoryChangedEvent>('history', (change) => {
    const next = (pending.current ??= { userIds: new Set(), libraryIds: new Set(), itemIds: new Set() });
    change.userIds.forEach((id) => next.userIds.add(id));
    change.libraryIds.forEach((id) => next.libraryIds.add(id));
    change.itemIds.forEach((id) => next.itemIds.add(id));
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      const folded = pending.current!;
      pending.current = null;
      invalidate(queryClient, { userIds: [...folded.userIds], libraryIds: [...folded.libraryIds], itemIds: [...folded.itemIds] });
    }, FOLD_MS);
  });
}
