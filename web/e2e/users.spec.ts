import { expect, test, type Page } from '@playwright/test';
import { openLoggedIn } from './helpers.js';

const names = (page: Page) => page.getByTestId('user-row').locator('td:nth-child(2)').allInnerTexts();

test('users table: sort, search, and a page size remembered after reload', async ({ page }) => {
  await openLoggedIn(page, '/users');
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  await page.getByLabel('Rows per page').selectOption('25');

  await page.getByRole('button', { name: 'User', exact: true }).click();
  const ascending = await names(page);
  expect(ascending.length).toBeGreaterThan(2);
  expect(ascending).toEqual([...ascending].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  await page.getByRole('button', { name: /^User/ }).click();
  expect(await names(page)).toEqual([...ascending].reverse());

  const target = ascending[1]!;
  await page.getByLabel('Search users').fill(target);
  await expect(page.getByTestId('user-row')).toHaveCount(
    ascending.filter((name) => name.toLowerCase().includes(target.toLowerCase())).length,
  );
  await expect(page.getByTestId('user-row').first()).toContainText(target);
  await page.getByLabel('Search users').fill('no-such-user-zzz');
  await expect(page.getByText('No Users Found')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Rows per page')).toHaveValue('25');
  expect(await page.evaluate(() => localStorage.getItem('PREF_USER_ACTIVITY_ItemCount'))).toBe('25');
  await page.getByLabel('Rows per page').selectOption('10');
  await expect(page.getByTestId('user-row')).toHaveCount(Math.min(10, ascending.length));
});
