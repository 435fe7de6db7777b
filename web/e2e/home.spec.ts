import { expect, test } from '@playwright/test';
import { openLoggedIn, sim, simItems, simUsers, type PlayRecord } from './helpers.js';

test('a live session appears on Home without reload and disappears after it stops', async ({ page }) => {
  await openLoggedIn(page, '/');
  await expect(page.getByTestId('no-sessions')).toBeVisible();
  const [user] = await simUsers();
  const [movie] = await simItems('Movie', 1);
  const play = await sim<PlayRecord>('/plays', {
    userId: user!.id,
    itemId: movie!.id,
    client: 'jellyfin-web',
    deviceId: 'e2e-home',
    remote: false,
  });
  try {
    const card = page.getByTestId('session-card').filter({ hasText: movie!.name });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(card.getByTestId('session-title')).toHaveText(movie!.name);
    await expect(card.getByText(user!.name)).toBeVisible();
    await expect(card.getByRole('progressbar')).toBeVisible();
    await expect(card.getByText('Jellyfin Web', { exact: false })).toBeVisible();
  } finally {
    await sim(`/plays/${play.playId}/stop`, {});
  }
  await expect(page.getByTestId('session-card').filter({ hasText: movie!.name })).toHaveCount(0, { timeout: 30_000 });
});

test('days input: applied on Enter; under 1 shows 1 and applies 0; remembered', async ({ page }) => {
  await openLoggedIn(page, '/');
  const days = page.getByLabel('Days', { exact: true });
  await expect(days).toHaveValue('30');
  await expect(page.getByText('Last 30 days')).toBeVisible();

  await days.fill('7');
  await expect(page.getByText('Last 30 days')).toBeVisible();
  const request = page.waitForRequest((r) => r.url().endsWith('/stats/getMostViewedByType') && r.postDataJSON()?.days === 7);
  await days.press('Enter');
  await request;
  await expect(page.getByText('Last 7 days')).toBeVisible();

  await days.fill('0');
  await days.press('Enter');
  await expect(days).toHaveValue('1');
  await expect(page.getByText('Last 0 days')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('PREF_HOME_STAT_DAYS'))).toBe('0');

  await days.fill('14');
  await days.press('Enter');
  await page.reload();
  await expect(page.getByLabel('Days', { exact: true })).toHaveValue('14');
});

test('Home at 375 px wide has no horizontal scroll', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await openLoggedIn(page, '/');
  await expect(page.getByRole('heading', { name: 'Library overview' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
});
