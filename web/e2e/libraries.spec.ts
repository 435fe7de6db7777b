import { expect, test } from '@playwright/test';
import { openLoggedIn } from './helpers.js';

test('library → series → season, with breadcrumbs back up', async ({ page }) => {
  await openLoggedIn(page, '/libraries');
  await page.getByTestId('library-card').filter({ hasText: 'Shows' }).click();
  await expect(page.getByRole('heading', { name: 'Shows', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Media items' }).click();
  const series = page.getByTestId('library-item').first();
  const seriesName = (await series.locator('span').first().innerText()).trim();
  await series.click();

  await expect(page.getByRole('heading', { name: seriesName, level: 1 })).toBeVisible();
  const crumbs = page.getByTestId('breadcrumbs');
  await expect(crumbs.getByRole('link', { name: 'Shows' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Seasons' })).toBeVisible();
  await page.getByTestId('child-item').first().click();

  await expect(crumbs.getByRole('link', { name: seriesName })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Episodes' })).toBeVisible();
  await crumbs.getByRole('link', { name: seriesName }).click();
  await expect(page.getByRole('heading', { name: seriesName, level: 1 })).toBeVisible();
  await crumbs.getByRole('link', { name: 'Shows' }).click();
  await expect(page.getByRole('heading', { name: 'Shows', level: 1 })).toBeVisible();
  // The tab is remembered per library.
  await expect(page.getByRole('tab', { name: 'Media items' })).toHaveAttribute('aria-selected', 'true');
});

test('an unknown item offers to fetch it and shows the server error on a disabled button', async ({ page }) => {
  await openLoggedIn(page, '/libraries/item/00000000000000000000000000000000');
  await expect(page.getByRole('heading', { name: 'Item not found' })).toBeVisible();
  await page.getByRole('button', { name: 'Fetch this item from the media server' }).click();
  const warning = page.getByTestId('item-not-found').getByRole('button');
  await expect(warning).toBeDisabled();
  await expect(warning).not.toHaveText('Fetch this item from the media server');
});
