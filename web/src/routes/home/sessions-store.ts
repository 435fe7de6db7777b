import { create } from 'zustand';
import type { Session } from '../../api/types';

/** The latest 'sessions' push, kept across screens. null until the first push arrives. */
export const useSessionsStore = create<{ sessions: Session[] | null; set: (sessions: Session[]) => void }>((set) => ({
  sessions: null,
  set: (sessions) => set({ sessions }),
}));

/** Only sessions with a now-playing item, sorted by Id (SPEC.md §2). */
export function visibleSessions(sessions: readonly Session[]): Session[] {
  return sessions.filter((session) => session.NowPlayingItem).sort((a, b) => (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0));
}
