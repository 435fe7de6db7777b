// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeFetch, renderWithProviders } from '../../test/render';
import { TimelineView } from './TimelineView';

const libraries = [
  { Id: 'l1', Name: 'Movies', CollectionType: 'movies', archived: false },
  { Id: 'l2', Name: 'Shows', CollectionType: 'tvshows', archived: false },
];

describe('timeline selectors', () => {
  let timelineCalls: unknown[];
  beforeEach(() => {
    localStorage.clear();
    timelineCalls = [];
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/getLibraries': libraries,
        '/stats/getAllUserActivity': [{ UserId: 'u1', UserName: 'alice' }],
        'POST /api/getActivityTimeLine': (init?: RequestInit) => {
          timelineCalls.push(JSON.parse(String(init?.body)));
          return [
            {
              Title: 'Dark',
              SeasonName: 'Season 1',
              MediaType: 'Series',
              EpisodeCount: 2,
              FirstActivityDate: '2026-01-01T10:00:00Z',
              LastActivityDate: '2026-01-01T12:00:00Z',
              NowPlayingItemId: 's1',
            },
            {
              Title: 'Dark',
              SeasonName: 'Season 2',
              MediaType: 'Series',
              EpisodeCount: 3,
              FirstActivityDate: '2026-01-02T10:00:00Z',
              LastActivityDate: '2026-01-02T12:00:00Z',
              NowPlayingItemId: 's1',
            },
          ];
        },
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('toggle select all selects all when none is selected, and clears when any is', async () => {
    renderWithProviders(<TimelineView fixedUserId="u1" />);
    const movies = (await screen.findByLabelText('Movies')) as HTMLInputElement;
    const shows = screen.getByLabelText('Shows') as HTMLInputElement;
    fireEvent.click(screen.getByRole('button', { name: 'Toggle select all' }));
    expect([movies.checked, shows.checked]).toEqual([true, true]);
    fireEvent.click(shows);
    expect([movies.checked, shows.checked]).toEqual([true, false]);
    fireEvent.click(screen.getByRole('button', { name: 'Toggle select all' }));
    expect([movies.checked, shows.checked]).toEqual([false, false]);
  });

  it('renders only with a user and at least one library, merging consecutive seasons', async () => {
    renderWithProviders(<TimelineView />);
    await screen.findByLabelText('Movies');
    expect(screen.getByTestId('timeline-hint')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Shows'));
    expect(screen.getByTestId('timeline-hint')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('option', { name: 'alice' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText('User'), { target: { value: 'u1' } });
    const timeline = await screen.findByTestId('timeline');
    expect(timeline.querySelectorAll('li')).toHaveLength(1);
    expect(screen.getByText('Season 1, Season 2')).toBeTruthy();
    expect(screen.getByText('5 episodes')).toBeTruthy();
    expect(timelineCalls).toEqual([{ userId: 'u1', libraries: ['l2'] }]);
  });
});
