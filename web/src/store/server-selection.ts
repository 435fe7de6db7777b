import { create } from 'zustand';
import { ALL_SERVERS } from '@reelstat/contract';

/** The browser remembers the selected media server (a PREF_ key: logout clears it). */
export const SERVER_STORAGE_KEY = 'PREF_MEDIA_SERVER';

function stored(): string | null {
  try {
    return localStorage.getItem(SERVER_STORAGE_KEY);
  } catch {
    return null;
  }
}

interface ServerSelectionState {
  /** A media server Id, ALL_SERVERS, or null for the default server. */
  selected: string | null;
  select: (serverId: string | null) => void;
}

export const useServerSelection = create<ServerSelectionState>((set) => ({
  selected: stored(),
  select: (serverId) => {
    if (serverId) localStorage.setItem(SERVER_STORAGE_KEY, serverId);
    else localStorage.removeItem(SERVER_STORAGE_KEY);
    set({ selected: serverId });
  },
}));

/** Back to the default server (the remembered one no longer exists). */
export function forgetSelectedServer(): void {
  useServerSelection.getState().select(null);
}

export function getSelectedServer(): string | null {
  return useServerSelection.getState().selected;
}

/** The calls that sum or list every linked server with serverId=all (home cards, charts, the users table, the history, the libraries list). */
const ALL_SERVER_PATHS = new Set([
  '/stats/getMostViewedByType',
  '/stats/getMostPopularByType',
  '/stats/getMostViewedLibraries',
  '/stats/getMostUsedClient',
  '/stats/getMostActiveUsers',
  '/stats/getPlaybackMethodStats',
  '/stats/getLibraryOverview',
  '/stats/getLibraryCardStats',
  '/stats/getLibraryMetadata',
  '/stats/getAllUserActivity',
  '/stats/getViewsOverTime',
  '/stats/getViewsByDays',
  '/stats/getViewsByHour',
  '/api/getHistory',
  '/api/exportHistory',
  '/api/exportUsers',
  '/api/exportHistory/ticket',
  '/api/exportUsers/ticket',
  // Images of an All-servers list come from the server that has the item or user.
  '/proxy/Items/Images/Primary',
  '/proxy/Items/Images/Backdrop',
  '/proxy/Users/Images/Primary',
]);

/** Calls that read or change one server's data (the server ignores serverId on the others, but they do not need it). */
function isServerScoped(path: string): boolean {
  if (path.startsWith('/api/mediaServers')) return false;
  return path.startsWith('/stats/') || path.startsWith('/proxy/') || path.startsWith('/api/') || path.startsWith('/sync/fetchItem');
}

/**
 * The serverId a call carries for the selected server: every scoped call names it; with "All servers", the
 * calls that can sum servers send `all` and the others act on the default server.
 */
export function serverIdFor(path: string, selected = getSelectedServer()): string | undefined {
  if (!selected || !isServerScoped(path)) return undefined;
  const bare = path.replace(/\/+$/, '');
  if (selected === ALL_SERVERS) return ALL_SERVER_PATHS.has(bare) ? ALL_SERVERS : undefined;
  return selected;
}

export { ALL_SERVERS };
