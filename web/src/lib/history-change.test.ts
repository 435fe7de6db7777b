import { describe, expect, it } from 'vitest';
import { showsChangedHistory } from './history-change';

describe('showsChangedHistory', () => {
  const change = { userIds: ['u1'], libraryIds: ['shows'], itemIds: ['e1', 's1', 's1-1'] };
  it('refreshes history, statistics and the timeline whatever they are about', () => {
    expect(showsChangedHistory(['history', { kind: 'user', id: 'u9' }, {}], change)).toBe(true);
    expect(showsChangedHistory(['stats', 'most-viewed', 'Movie', 30], change)).toBe(true);
    expect(showsChangedHistory(['timeline', 'u1', ['shows']], change)).toBe(true);
  });
  it('refreshes only the user, library and item pages the plays belong to', () => {
    expect(showsChangedHistory(['user', 'u1'], change)).toBe(true);
    expect(showsChangedHistory(['user', 'u2'], change)).toBe(false);
    expect(showsChangedHistory(['library', 'shows'], change)).toBe(true);
    expect(showsChangedHistory(['library', 'movies'], change)).toBe(false);
    expect(showsChangedHistory(['item', 's1'], change)).toBe(true);
    expect(showsChangedHistory(['episodes', 's1-1'], change)).toBe(true);
    expect(showsChangedHistory(['item', 'm9'], change)).toBe(false);
  });
  it('leaves settings, keys and logs alone', () => {
    expect(showsChangedHistory(['api-keys'], change)).toBe(false);
    expect(showsChangedHistory(['config'], change)).toBe(false);
  });
});
