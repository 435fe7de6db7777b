import { describe, expect, it } from 'vitest';
import { applyDaysInput, mergeConsecutiveSeasons, sortableTitle, toggleAll, validateCredentials, validateMonitor } from './rules';

describe('days input', () => {
  it('uses the integer of a valid value', () => {
    expect(applyDaysInput('7')).toEqual({ display: 7, applied: 7 });
    expect(applyDaysInput('12.8')).toEqual({ display: 12, applied: 12 });
  });
  it('shows 1 but applies 0 under 1', () => {
    expect(applyDaysInput('0')).toEqual({ display: 1, applied: 0 });
    expect(applyDaysInput('-5')).toEqual({ display: 1, applied: 0 });
    expect(applyDaysInput('')).toEqual({ display: 1, applied: 0 });
    expect(applyDaysInput('abc')).toEqual({ display: 1, applied: 0 });
  });
});

describe('toggle select all', () => {
  it('clears when any is selected', () => {
    expect(toggleAll(['a'], ['a', 'b', 'c'])).toEqual([]);
  });
  it('selects all when none is selected', () => {
    expect(toggleAll([], ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
  });
});

describe('password change', () => {
  it('requires the username', () => {
    expect(validateCredentials({ username: ' ', currentPassword: '', newPassword: '' })).toBe('usernameRequired');
  });
  it('requires a new password of at least 6 characters when the current one is given', () => {
    expect(validateCredentials({ username: 'admin', currentPassword: 'old', newPassword: '' })).toBe('passwordLength');
    expect(validateCredentials({ username: 'admin', currentPassword: 'old', newPassword: '12345' })).toBe('passwordLength');
    expect(validateCredentials({ username: 'admin', currentPassword: 'old', newPassword: '123456' })).toBeNull();
  });
  it('allows a username change alone', () => {
    expect(validateCredentials({ username: 'admin', currentPassword: '', newPassword: '' })).toBeNull();
  });
});

describe('activity monitor', () => {
  it('accepts the recommended values', () => {
    expect(validateMonitor(1000, 5000)).toEqual({ activeError: null, idleError: null, warning: false });
  });
  it('bounds the active interval to 500–10000 ms', () => {
    expect(validateMonitor(499, 5000).activeError).toBe('range');
    expect(validateMonitor(500, 5000).activeError).toBeNull();
    expect(validateMonitor(10_000, 30_000).activeError).toBeNull();
    expect(validateMonitor(10_001, 30_000).activeError).toBe('range');
  });
  it('bounds the idle interval to 1000–30000 ms', () => {
    expect(validateMonitor(1000, 999).idleError).toBe('range');
    expect(validateMonitor(1000, 30_001).idleError).toBe('range');
    expect(validateMonitor(1000, Number.NaN).idleError).toBe('range');
  });
  it('accepts only steps of 100 ms (active) and 1000 ms (idle)', () => {
    expect(validateMonitor(1050, 5000).activeError).toBe('range');
    expect(validateMonitor(1100, 5000).activeError).toBeNull();
    expect(validateMonitor(1000, 5500).idleError).toBe('range');
  });
  it('warns when active is greater than idle', () => {
    expect(validateMonitor(6000, 5000).warning).toBe(true);
    expect(validateMonitor(6000, 5000).activeError).toBeNull();
    expect(validateMonitor(5000, 5000).warning).toBe(false);
  });
});

describe('item title sort', () => {
  it('ignores a leading A, An or The', () => {
    expect(sortableTitle('The Matrix')).toBe('matrix');
    expect(sortableTitle('An Education')).toBe('education');
    expect(sortableTitle('A Quiet Place')).toBe('quiet place');
    expect(sortableTitle('Theory')).toBe('theory');
  });
});

describe('timeline merge', () => {
  it('merges consecutive seasons of the same show', () => {
    const merged = mergeConsecutiveSeasons([
      {
        Title: 'Dark',
        SeasonName: 'Season 1',
        MediaType: 'Series',
        EpisodeCount: 3,
        FirstActivityDate: '2026-01-01',
        LastActivityDate: '2026-01-02',
      },
      {
        Title: 'Dark',
        SeasonName: 'Season 2',
        MediaType: 'Series',
        EpisodeCount: 2,
        FirstActivityDate: '2026-01-03',
        LastActivityDate: '2026-01-04',
      },
      { Title: 'Heat', MediaType: 'Movie', FirstActivityDate: '2026-01-05', LastActivityDate: '2026-01-05' },
      {
        Title: 'Dark',
        SeasonName: 'Season 3',
        MediaType: 'Series',
        EpisodeCount: 1,
        FirstActivityDate: '2026-01-06',
        LastActivityDate: '2026-01-06',
      },
    ]);
    expect(merged).toHaveLength(3);
    expect(merged[0]).toMatchObject({
      SeasonName: 'Season 1, Season 2',
      EpisodeCount: 5,
      FirstActivityDate: '2026-01-01',
      LastActivityDate: '2026-01-04',
    });
    expect(merged[2]).toMatchObject({ Title: 'Dark', SeasonName: 'Season 3' });
  });
});
