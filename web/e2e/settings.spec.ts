import { expect, test } from '@playwright/test';
import { openLoggedIn } from './helpers.js';

test('library settings: the tracked switch flips and stays flipped', async ({ page }) => {
  await openLoggedIn(page, '/settings');
  await page.getByRole('tab', { name: 'Library settings' }).click();
  const toggle = page.getByRole('switch', { name: 'Track Music' });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Library settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('switch', { name: 'Track Music' })).toHaveAttribute('aria-checked', 'false');
  await page.getByRole('switch', { name: 'Track Music' }).click();
  await expect(page.getByRole('switch', { name: 'Track Music' })).toHaveAttribute('aria-checked', 'true');
});

test('API keys: create, shown once, listed, deleted', async ({ page }) => {
  await openLoggedIn(page, '/settings');
  await page.getByRole('tab', { name: 'API keys' }).click();
  await page.getByLabel('Name').fill('e2e-key');
  await page.getByRole('button', { name: 'Add key' }).click();
  await expect(page.getByTestId('created-key')).toBeVisible();
  const table = page.getByTestId('keys-table');
  await expect(table.getByRole('row').filter({ hasText: 'e2e-key' })).toHaveCount(1);
  await table.getByRole('button', { name: 'Delete key e2e-key' }).click();
  await expect(page.getByText('API key deleted')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'e2e-key' })).toHaveCount(0);
});

test('activity monitor: range messages and the active > idle warning', async ({ page }) => {
  await openLoggedIn(page, '/settings');
  await page.getByRole('tab', { name: 'General' }).click();
  const active = page.getByLabel('Active sessions interval (ms)');
  const idle = page.getByLabel('Idle interval (ms)');
  await active.fill('400');
  await expect(page.getByText('Enter a value from 500 to 10000 ms, in steps of 100 ms')).toBeVisible();
  await active.fill('10100');
  await expect(page.getByText('Enter a value from 500 to 10000 ms, in steps of 100 ms')).toBeVisible();
  await active.fill('1000');
  await idle.fill('31000');
  await expect(page.getByText('Enter a value from 1000 to 30000 ms, in steps of 1000 ms')).toBeVisible();
  await idle.fill('2000');
  await active.fill('3000');
  await expect(page.getByTestId('monitor-warning')).toBeVisible();
  await active.fill('1000');
  await idle.fill('5000');
  await expect(page.getByTestId('monitor-warning')).toHaveCount(0);
  await page.getByRole('form', { name: 'Activity monitor' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings applied in real time')).toBeVisible();
});

test('language: switching changes the UI and is remembered', async ({ page }) => {
  await openLoggedIn(page, '/settings');
  await page.getByRole('tab', { name: 'General' }).click();
  await page.getByLabel('Language').selectOption('fr-FR');
  await expect(page.getByRole('heading', { name: 'Paramètres', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Accueil' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('fr-FR');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Paramètres', level: 1 })).toBeVisible();
  await page.getByLabel('Langue').selectOption('de-DE');
  await expect(page.getByRole('heading', { name: 'Einstellungen', level: 1 })).toBeVisible();
  await page.getByLabel('Sprache').selectOption('en-UK');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
});
