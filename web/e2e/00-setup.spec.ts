import { expect, test } from '@playwright/test';
import { ADMIN, PASSWORD, adminToken, api, simKey, simUrl, until } from './helpers.js';

test('first-run setup: account with password show/hide, media server, a full sync, then the dashboard', async ({ page }) => {
  const { state } = await api<{ state: number }>('/auth/isConfigured');
  expect(state, 'the e2e backend starts unconfigured').toBe(0);

  await page.goto('/');
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  await page.getByLabel('Username').fill(ADMIN);
  const password = page.getByLabel('Password', { exact: true });
  await password.fill(PASSWORD);
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide' }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  await page.getByLabel('Media server URL').fill(simUrl());
  await page.getByLabel('API key').fill('not-the-key');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toBeVisible();

  await page.getByLabel('API key').fill(simKey());
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Linked (Jellyfin|Emby) server/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible({ timeout: 30_000 });
  expect(new URL(page.url()).pathname).toBe('/');

  const token = await adminToken();
  const logs = await until('the full sync started by the wizard', async () => {
    const entries = await api<Array<{ Name: string; Result: string }>>('/logs/getLogs', { token });
    return entries.find((entry) => entry.Name === 'FullSyncTask');
  });
  expect(logs.Name).toBe('FullSyncTask');
  expect((await api<{ state: number }>('/auth/isConfigured')).state).toBe(2);
});
