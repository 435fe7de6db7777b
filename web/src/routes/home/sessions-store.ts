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

/**
 * The sessions of the selected server: the socket pushes every server's. `scope` is a server Id, 'all' for
 * every server, or undefined while the server list is unknown (then nothing is hidden).
 */
export function sessionsOfServer(sessions: readonly Session[], scope: string | undefined): Session[] {
  if (!scope || scope === 'all') return [...sessions];
  return sessions.filter((session) => session.ServerId === scope);
}
