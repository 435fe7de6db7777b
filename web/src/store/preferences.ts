import { create } from 'zustand';

/**
 * Browser storage keys of SPEC.md §3. token, config, 12hr, i18nextLng and groupRecentlyAdded are the named ones;
 * the other preferences all start with PREF_ so that logout can clear them in one sweep.
 */
export const STORAGE = {
  token: 'token',
  config: 'config',
  hour12: '12hr',
  language: 'i18nextLng',
  homeStatDays: 'PREF_HOME_STAT_DAYS',
  settingsTab: 'PREF_SETTINGS_LAST_SELECTED_TAB',
  pageSize: 'PREF_USER_ACTIVITY_ItemCount',
  groupRecentlyAdded: 'groupRecentlyAdded',
  streamFilter: 'PREF_ACTIVITY_STREAM_FILTER',
  libraryFilters: 'PREF_ACTIVITY_LIBRARY_FILTERS',
  libraryTab: (libraryId: string) => `PREF_LIBRARY_TAB_${libraryId}`,
  itemSort: 'PREF_LIBRARY_ITEM_SORT',
  itemSortAsc: 'PREF_LIBRARY_ITEM_SORT_ASC',
  archiveFilter: 'PREF_LIBRARY_ARCHIVE_FILTER',
  showArchivedLibraries: 'PREF_LIBRARIES_SHOW_ARCHIVED',
  timelineUser: 'PREF_TIMELINE_USER',
  timelineLibraries: 'PREF_TIMELINE_LIBRARIES',
  globalStatsPeriods: 'PREF_GLOBAL_STATS_PERIODS',
  statisticsDays: 'PREF_STATISTICS_DAYS',
} as const;

/** Parsed stored values, one per key: a selector must return the same reference on every call. */
const parsed = new Map<string, unknown>();

function read(key: string): unknown {
  if (!parsed.has(key)) parsed.set(key, parse(key));
  return parsed.get(key);
}

function parse(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return localStorage.getItem(key) ?? undefined;
  }
}

interface PreferenceState {
  values: Record<string, unknown>;
  set: (key: string, value: unknown) => void;
}

/** One small store of preferences, mirrored to localStorage under the keys above. */
export const usePreferenceStore = create<PreferenceState>((set) => ({
  values: {},
  set: (key, value) => {
    localStorage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
    set((state) => ({ values: { ...state.values, [key]: value } }));
  },
}));

/** [value, setValue] for one preference; the stored value wins over the fallback when its type matches. */
export function usePreference<T>(key: string, fallback: T): [T, (value: T) => void] {
  const stored = usePreferenceStore((state) => (key in state.values ? state.values[key] : read(key)));
  const setValue = usePreferenceStore((state) => state.set);
  const value =
    stored !== undefined && typeof stored === typeof fallback && Array.isArray(stored) === Array.isArray(fallback)
      ? (stored as T)
      : fallback;
  return [value, (next: T) => setValue(key, next)];
}

export function getStoredToken(): string | null {
  return localStorage.getItem(STORAGE.token);
}

export function setStoredToken(token: string): void {
  localStorage.setItem(STORAGE.token, token);
}

/** Logout: the token, the stored config and every PREF_ key go; other keys (language, clock) stay. */
export function clearSession(): void {
  localStorage.removeItem(STORAGE.token);
  localStorage.removeItem(STORAGE.config);
  for (const key of Object.keys(localStorage)) if (key.startsWith('PREF_')) localStorage.removeItem(key);
  parsed.clear();
  usePreferenceStore.setState({ values: {} });
}
