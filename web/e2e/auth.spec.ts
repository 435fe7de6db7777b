import { expect, test } from '@playwright/test';
import { ADMIN, PASSWORD, ensureReady } from './helpers.js';

test.beforeAll(async () => {
  await ensureReady();
});

test('a failed login shows its message on the button; a good one opens the dashboard', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username').fill(ADMIN);
  await page.getByLabel('Password', { exact: true }).fill('wrong password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Invalid username or password (401)' })).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Invalid username or password (401)' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^ey/);
});

test('a stored token signs in automatically', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username').fill(ADMIN);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveCount(0);
});

test('logout clears the token, the config and every PREF_ key, then shows the login screen', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username').fill(ADMIN);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.getByLabel('Days', { exact: true }).fill('12');
  await page.getByLabel('Days', { exact: true }).press('Enter');
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'API keys' }).click();
  await page.evaluate(() => localStorage.setItem('groupRecentlyAdded', 'false'));
  const before = await page.evaluate(() => Object.keys(localStorage).sort());
  expect(before).toEqual(expect.arrayContaining(['token', 'config', 'PREF_HOME_STAT_DAYS', 'PREF_SETTINGS_LAST_SELECTED_TAB']));

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  const after = await page.evaluate(() => Object.keys(localStorage).sort());
  expect(after.filter((key) => key === 'token' || key === 'config' || key.startsWith('PREF_'))).toEqual([]);
  expect(after).toContain('groupRecentlyAdded');
});
