/** Form and input rules of SPEC.md §4 and §5. Pure, unit-tested in rules.test.ts. */

/**
 * Days window (home and statistics), applied on Enter: a value under 1 is shown as 1 in the box but the applied
 * value becomes 0; otherwise the integer part is used.
 */
export function applyDaysInput(raw: string): { display: number; applied: number } {
  const value = Math.trunc(Number(raw));
  if (!Number.isFinite(value) || raw.trim() === '' || value < 1) return { display: 1, applied: 0 };
  return { display: value, applied: value };
}

/** Timeline "toggle select all": clears when any is selected, else selects all. */
export function toggleAll<T>(selected: readonly T[], all: readonly T[]): T[] {
  return selected.length > 0 ? [] : [...all];
}

export const PASSWORD_MIN_LENGTH = 6;

export type CredentialsError = 'usernameRequired' | 'passwordLength' | null;

/** Security form: username required; a current password requires a new one of at least 6 characters. */
export function validateCredentials(form: { username: string; currentPassword: string; newPassword: string }): CredentialsError {
  if (form.username.trim() === '') return 'usernameRequired';
  if (form.currentPassword !== '' && form.newPassword.length < PASSWORD_MIN_LENGTH) return 'passwordLength';
  return null;
}

export const ACTIVE_INTERVAL = { min: 500, max: 10_000, step: 100, recommended: 1000 } as const;
export const IDLE_INTERVAL = { min: 1000, max: 30_000, step: 1000, recommended: 5000 } as const;

export interface MonitorCheck {
  activeError: 'range' | null;
  idleError: 'range' | null;
  /** Active polling slower than idle polling: allowed, but warned about. */
  warning: boolean;
}

/** Outside the range, or not on a step (the server refuses both). */
function outOfRange(value: number, range: { min: number; max: number; step: number }): boolean {
  return !Number.isFinite(value) || !Number.isInteger(value) || value < range.min || value > range.max || value % range.step !== 0;
}

export function validateMonitor(activeSessionsInterval: number, idleInterval: number): MonitorCheck {
  return {
    activeError: outOfRange(activeSessionsInterval, ACTIVE_INTERVAL) ? 'range' : null,
    idleError: outOfRange(idleInterval, IDLE_INTERVAL) ? 'range' : null,
    warning: activeSessionsInterval > idleInterval,
  };
}

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const TASK_INTERVALS = [15, 30, 60, 720, 1440, 10080] as const;
export const STAT_PERIODS = [1, 7, 30, 180, 365, 9999] as const;

/** Item sort by title ignores a leading "A", "An" or "The". */
export function sortableTitle(name: string): string {
  return name.replace(/^(the|an|a)\s+/i, '').toLowerCase();
}

export interface TimelineEntryLike {
  Title: string;
  SeasonName?: string | null;
  MediaType: string;
  EpisodeCount?: number | null;
  FirstActivityDate: string;
  LastActivityDate: string;
}

/** Consecutive entries of the same show are merged: episode counts add up, the date range widens. */
export function mergeConsecutiveSeasons<T extends TimelineEntryLike>(entries: readonly T[]): T[] {
  const merged: T[] = [];
  for (const entry of entries) {
    const last = merged[merged.length - 1];
    if (last && entry.MediaType !== 'Movie' && last.MediaType === entry.MediaType && last.Title === entry.Title) {
      const seasons = [last.SeasonName, entry.SeasonName].filter(Boolean) as string[];
      merged[merged.length - 1] = {
        ...last,
        SeasonName: [...new Set(seasons.flatMap((s) => s.split(', ')))].join(', ') || null,
        EpisodeCount: (last.EpisodeCount ?? 0) + (entry.EpisodeCount ?? 0),
        FirstActivityDate: last.FirstActivityDate < entry.FirstActivityDate ? last.FirstActivityDate : entry.FirstActivityDate,
        LastActivityDate: last.LastActivityDate > entry.LastActivityDate ? last.LastActivityDate : entry.LastActivityDate,
      };
    } else merged.push({ ...entry });
  }
  return merged;
}
