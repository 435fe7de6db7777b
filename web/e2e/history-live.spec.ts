import { expect, test } from '@playwright/test';
import { api, ensureReady, liveSessionCount, openLoggedIn, sim, simItems, simUsers, until, type PlayRecord } from './helpers.js';

/**
 * Issue 12: with the default 10-minute merge window, a play is written to the history when it stops, and the
 * 'history' socket event makes an open Activity page and an open Home page show it without a reload (their
 * own polling is an hour and five minutes: only the event can refresh them within the test's deadline).
 */
test('a play recorded while Activity and Home are open appears in both without a reload', async ({ context }) => {
  test.setTimeout(120_000);
  const auth = await ensureReady();
  await api('/api/setActivityMonitorSettings', {
    method: 'POST',
    token: auth,
    body: { activeSessionsInterval: 500, idleInterval: 1000, minimumPlaySeconds: 0, mergeWindowMinutes: 10 },
  });
  // The movie: the most viewed one (it stays on the card with one play more), else any.
  const top = await api<Array<{ Id: string; Name: string; Plays: number }>>('/stats/getMostViewedByType', {
    method: 'POST',
    token: auth,
    body: { days: 30, type: 'Movie' },
  });
  const movies = await simItems('Movie', 5);
  const movie = top[0] ? { id: top[0].Id, name: top[0].Name } : movies[0]!;
  const playsBefore = top[0]?.Plays ?? 0;
  // The user: not the one of the newest history row, so the new row is not folded into it.
  const newest = await api<{ results: Array<{ UserId: string }> }>('/api/getHistory?size=10&page=1', { token: auth });
  const user = (await simUsers()).find((u) => u.id !== newest.results[0]?.UserId)!;

  const activity = await context.newPage();
  await openLoggedIn(activity, '/activity');
  const rows = activity.getByTestId('activity-row');
  const home = await context.newPage();
  await openLoggedIn(home, '/');
  const card = home.getByRole('region', { name: 'Most viewed movies' });
  await expect(card).toBeVisible();

  const play = await sim<PlayRecord>('/plays', { userId: user.id, itemId: movie.id, client: 'jellyfin-web', deviceId: 'e2e-history-live' });
  await until('the activity monitor to see the play', async () => (await liveSessionCount()) >= 1, 30_000);
  // The play's own length (two seconds watched), not a wait for anything: the stop below is what the test follows.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await sim(`/plays/${play.playId}/stop`, {});

  await expect(rows.first()).toContainText(movie.name);
  await expect(rows.first()).toContainText(user.name);
  await expect(card.locator('li', { hasText: movie.name })).toContainText(String(playsBefore + 1));
});

/**
 * The user, item and library pages do not poll their statistics at all: only the 'history' event naming the
 * play's user, item and library can make their "last 1 day" card count the new play without a reload.
 */
test('a play recorded while its user, item and library pages are open is counted on each without a reload', async ({ context }) => {
  test.setTimeout(120_000);
  const auth = await ensureReady();
  await api('/api/setActivityMonitorSettings', {
    method: 'POST',
    token: auth,
    body: { activeSessionsInterval: 500, idleInterval: 1000, minimumPlaySeconds: 0, mergeWindowMinutes: 10 },
  });
  // A user with no play in the newest rows, so no play of theirs can be resumed (extended) by this one.
  const newest = await api<{ results: Array<{ UserId: string }> }>('/api/getHistory?size=50&page=1', { token: auth });
  const recent = new Set(newest.results.map((row) => row.UserId));
  const user = (await simUsers()).find((u) => !recent.has(u.id)) ?? (await simUsers()).at(-1)!;
  const movie = (await simItems('Movie', 5)).at(-1)!;
  // Right after set-up the first full sync may still be on its way to this movie.
  const details = await until(
    'the movie to be synced',
    async () =>
      (await api<Array<{ ParentId: string | null }>>('/api/getItemDetails', { method: 'POST', token: auth, body: { Id: movie.id } }))[0],
  );
  const libraryId = details.ParentId!;
  const playsToday = async (path: string, scope: Record<string, string>) =>
    (await api<{ Plays: number }>(path, { method: 'POST', token: auth, body: { ...scope, hours: 24 } })).Plays;
  const pages = [
    { path: `/users/${user.id}`, before: await playsToday('/stats/getGlobalUserStats', { userid: user.id }) },
    { path: `/libraries/item/${movie.id}`, before: await playsToday('/stats/getGlobalItemStats', { itemid: movie.id }) },
    { path: `/libraries/${libraryId}`, before: await playsToday('/stats/getGlobalLibraryStats', { libraryid: libraryId }) },
  ];
  // The first global-stats card is "last 1 day" (GlobalStats' default periods).
  const dayCount = (before: number) => new RegExp(`^${before} plays?$`);
  const opened = [];
  for (const { path, before } of pages) {
    const page = await context.newPage();
    await openLoggedIn(page, path);
    const card = page.getByTestId('global-stat').first().locator('p').first();
    await expect(card).toHaveText(dayCount(before));
    opened.push({ card, before });
  }

  const play = await sim<PlayRecord>('/plays', {
    userId: user.id,
    itemId: movie.id,
    client: 'jellyfin-web',
    deviceId: 'e2e-history-pages',
  });
  await until('the activity monitor to see the play', async () => (await liveSessionCount()) >= 1, 30_000);
  // The play's own length (two seconds watched), not a wait for anything: the stop below is what the test follows.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await sim(`/plays/${play.playId}/stop`, {});

  for (const { card, before } of opened) await expect(card).toHaveText(dayCount(before + 1));
});
